package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZPOPMIN key [count] and ZPOPMAX key [count]
type zpop struct {
	key      []byte
	max      bool
	count    int64
	hasCount bool
}

func popParser(max bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		z := zpop{key: args[1], max: max, count: 1}
		switch {
		case len(args) > 3:
			return nil, rerr.ErrSyntax
		case len(args) == 3:
			n, err := command.PositiveCount(args[2])
			if err != nil {
				return nil, err
			}
			z.count, z.hasCount = n, true
		}
		return z, nil
	}
}

func (z zpop) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	var es []rzset.Entry
	if ok && z.count > 0 {
		if es, err = set.ByRank(0, z.count-1, z.max); err != nil {
			return err
		}
		ms := make([][]byte, len(es))
		for i, e := range es {
			ms[i] = e.Member
		}
		if _, err := set.RemoveMembers(ms); err != nil {
			return err
		}
	}
	if !z.hasCount {
		// One pair, flat in both protocols.
		c.W.Array(2 * len(es))
		for _, e := range es {
			c.W.Bulk(e.Member)
			c.W.Double(e.Score)
		}
		return nil
	}
	writeEntries(c, es, true)
	return nil
}
