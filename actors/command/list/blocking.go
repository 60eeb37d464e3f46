package list

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// BLPOP/BRPOP key [key ...] timeout: pops from the first non-empty list,
// or waits. Replies [key, element], or a nil array on timeout.
type bpop struct {
	command.Wait
	left bool
}

func bpopParser(left bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		d, err := command.Timeout(args[len(args)-1])
		if err != nil {
			return nil, err
		}
		return &bpop{Wait: command.Wait{Keys: args[1 : len(args)-1], For: d}, left: left}, nil
	}
}

func (x *bpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.Keys) }

func (x *bpop) Serve(c *command.Ctx, key []byte) error {
	l, err := rlist.Open(c.Tx, key, false)
	if err != nil {
		return err
	}
	if l == nil {
		return command.ErrWouldBlock
	}
	vs, err := popNoted(l, x.left, 1)
	if err != nil {
		return err
	}
	popEffect(c, key, x.left, 1)
	c.W.Array(2)
	c.W.Bulk(key)
	c.W.Bulk(vs[0])
	return nil
}

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout and BRPOPLPUSH
// source destination timeout. Reply: the element, or nil on timeout.
type blmove struct {
	lmove
	command.Wait
}

func newBLMove(m lmove, d time.Duration) *blmove {
	return &blmove{m, command.Wait{Keys: [][]byte{m.src}, Also: [][]byte{m.dst}, For: d, NullBulk: true}}
}

func parseBLMove(args [][]byte) (command.Runner, error) {
	m, err := parseLMove(args[:5])
	if err != nil {
		return nil, err
	}
	d, err := command.Timeout(args[5])
	if err != nil {
		return nil, err
	}
	return newBLMove(m.(lmove), d), nil
}

func parseBRPopLPush(args [][]byte) (command.Runner, error) {
	d, err := command.Timeout(args[3])
	if err != nil {
		return nil, err
	}
	return newBLMove(lmove{args[1], args[2], false, true}, d), nil
}

func (x *blmove) Run(c *command.Ctx) error { return x.Serve(c, x.src) }

func (x *blmove) Serve(c *command.Ctx, _ []byte) error {
	v, err := x.move(c)
	if err != nil {
		return err
	}
	if v == nil {
		return command.ErrWouldBlock
	}
	if c.Effects() {
		c.Effect([]byte("LMOVE"), x.src, x.dst, sideName(x.fromLeft), sideName(x.toLeft))
	}
	c.W.Bulk(v)
	return nil
}

// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]
type blmpop struct {
	lmpop
	command.Wait
}

func parseBLMPop(args [][]byte) (command.Runner, error) {
	d, err := command.Timeout(args[1])
	if err != nil {
		return nil, err
	}
	m, err := parseMPop(args[2:])
	if err != nil {
		return nil, err
	}
	return &blmpop{m, command.Wait{Keys: m.Keys, For: d}}, nil
}

func (x *blmpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.Keys) }

func (x *blmpop) Serve(c *command.Ctx, key []byte) error { return x.popFrom(c, key) }

var (
	_ command.Blocker = (*bpop)(nil)
	_ command.Blocker = (*blmove)(nil)
	_ command.Blocker = (*blmpop)(nil)
)

// sideName is LEFT or RIGHT, as LMOVE takes them.
func sideName(left bool) []byte {
	if left {
		return []byte("LEFT")
	}
	return []byte("RIGHT")
}
