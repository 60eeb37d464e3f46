package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZREMRANGEBYRANK key start stop, ZREMRANGEBYSCORE key min max and
// ZREMRANGEBYLEX key min max.
type zremRange struct {
	key []byte
	rangeSpec
}

func remRangeParser(kind rangeKind) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		rs, err := parseRange(args, 2, kind, true, false, true, false)
		return zremRange{args[1], rs}, err
	}
}

func (z zremRange) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil || !ok {
		c.W.Int(0)
		return err
	}
	es, err := z.fetch(set)
	if err != nil {
		return err
	}
	ms := make([][]byte, len(es))
	for i, e := range es {
		ms[i] = e.Member
	}
	n, err := set.RemoveMembers(ms)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
