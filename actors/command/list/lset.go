package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LSET key index element: one point write.
type lset struct{ key, index, elem []byte }

func parseLSet(args [][]byte) (command.Runner, error) { return lset{args[1], args[2], args[3]}, nil }

func (x lset) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		return rerr.ErrNoSuchKey
	}
	n, err := command.Int(x.index)
	if err != nil {
		return err
	}
	i, ok := l.Abs(n)
	if !ok {
		return rerr.Errorf("ERR index out of range")
	}
	if err := l.Set(i, x.elem); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
