package set

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SMOVE source destination member. Atomic across shards: the router holds
// both keys' shards and the move is one transaction.
type smove struct{ src, dst, member []byte }

func parseSMove(args [][]byte) (command.Runner, error) { return smove{args[1], args[2], args[3]}, nil }

func (s smove) Run(c *command.Ctx) error {
	src, err := rset.Open(c.Tx, s.src, false)
	if err != nil {
		return err
	}
	if src == nil {
		c.W.Int(0)
		return nil
	}
	dst, err := rset.Open(c.Tx, s.dst, true)
	if err != nil {
		return err
	}
	if bytes.Equal(s.src, s.dst) {
		ok, err := rset.IsMember(src, s.member)
		if err != nil {
			return err
		}
		c.W.Int(b2i(ok))
		return nil
	}
	n, err := rset.Remove(src, [][]byte{s.member})
	if err != nil {
		return err
	}
	if n == 0 {
		c.W.Int(0)
		return nil
	}
	if _, err := rset.Add(dst, [][]byte{s.member}, c.EncodingLimits().IntsetEntries); err != nil {
		return err
	}
	c.W.Int(1)
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// smoveEvent names SMOVE's events: srem for the source (written first),
// sadd for the destination.
func smoveEvent(i int, _ bool) string {
	if i == 0 {
		return "srem"
	}
	return "sadd"
}
