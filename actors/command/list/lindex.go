package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LINDEX key index: one point read. Like Redis, the key is checked before
// the index is parsed.
type lindex struct{ key, index []byte }

func parseLIndex(args [][]byte) (command.Runner, error) { return lindex{args[1], args[2]}, nil }

func (x lindex) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Null()
		return nil
	}
	n, err := command.Int(x.index)
	if err != nil {
		return err
	}
	i, ok := l.Abs(n)
	if !ok {
		c.W.Null()
		return nil
	}
	v, err := l.Get(i)
	if err != nil {
		return err
	}
	c.W.Bulk(v)
	return nil
}
