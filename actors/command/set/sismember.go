package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SISMEMBER key member
type sisMember struct{ key, member []byte }

func parseSIsMember(args [][]byte) (command.Runner, error) { return sisMember{args[1], args[2]}, nil }

func (s sisMember) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	ok, err := rset.IsMember(set, s.member)
	if err != nil {
		return err
	}
	if ok {
		c.W.Int(1)
	} else {
		c.W.Int(0)
	}
	return nil
}
