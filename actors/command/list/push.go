package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LPUSH/RPUSH key element [element ...]; LPUSHX/RPUSHX push only onto an
// existing list.
type push struct {
	key   []byte
	elems [][]byte
	left  bool
	x     bool
}

func pushParser(left, x bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return push{key: args[1], elems: args[2:], left: left, x: x}, nil
	}
}

func (p push) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, p.key, !p.x)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Int(0)
		return nil
	}
	if err := pushNoted(l, p.left, p.elems...); err != nil {
		return err
	}
	c.W.Int(l.Len())
	return nil
}
