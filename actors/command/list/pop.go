package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LPOP/RPOP key [count]: one element as a bulk string, or with a count an
// array (nil array for a missing key).
type pop struct {
	key      []byte
	left     bool
	count    int64
	hasCount bool
}

func popParser(name string, left bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		p := pop{key: args[1], left: left, count: 1}
		switch {
		case len(args) > 3:
			return nil, rerr.ErrArity(name)
		case len(args) == 3:
			n, err := command.PositiveCount(args[2])
			if err != nil {
				return nil, err
			}
			p.count, p.hasCount = n, true
		}
		return p, nil
	}
}

func (p pop) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, p.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		if p.hasCount {
			c.W.NullArray()
		} else {
			c.W.Null()
		}
		return nil
	}
	vs, err := popNoted(l, p.left, p.count)
	if err != nil {
		return err
	}
	if !p.hasCount {
		c.W.Bulk(vs[0])
		return nil
	}
	writeArray(c, vs)
	return nil
}

func writeArray(c *command.Ctx, vs [][]byte) {
	c.W.Array(len(vs))
	for _, v := range vs {
		c.W.Bulk(v)
	}
}
