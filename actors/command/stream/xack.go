package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XACK key group id [id ...]: removes the entries from the group's pending
// list; replies how many were pending.
type xack struct {
	key, group []byte
	ids        []codec.StreamID
}

func parseXAck(args [][]byte) (command.Runner, error) {
	x := xack{key: args[1], group: args[2]}
	for _, a := range args[3:] {
		id, err := parseID(a, 0, false)
		if err != nil {
			return nil, err
		}
		x.ids = append(x.ids, id)
	}
	return x, nil
}

func (x xack) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if s != nil {
		if n, err = ack(s, x.group, x.ids); err != nil {
			return err
		}
	}
	c.W.Int(n)
	return nil
}

// ack acknowledges ids in group (a missing group acknowledges nothing).
func ack(s *rstream.Stream, group []byte, ids []codec.StreamID) (int64, error) {
	g, ok, err := s.Group(group)
	if err != nil || !ok {
		return 0, err
	}
	var n int64
	counts := map[string]int64{}
	for _, id := range ids {
		p, ok, err := s.Pending(group, id)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if err := s.Ack(group, p); err != nil {
			return 0, err
		}
		counts[string(p.Consumer)]++
		n++
	}
	for name, k := range counts {
		if err := moveCount(s, group, []byte(name), -k); err != nil {
			return 0, err
		}
	}
	if n > 0 {
		g.Pending -= n
		return n, s.PutGroup(g)
	}
	return 0, nil
}
