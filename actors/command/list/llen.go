package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LLEN key: O(1) from the meta.
type llen struct{ key []byte }

func parseLLen(args [][]byte) (command.Runner, error) { return llen{args[1]}, nil }

func (x llen) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if l != nil {
		n = l.Len()
	}
	c.W.Int(n)
	return nil
}
