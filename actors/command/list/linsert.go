package list

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LINSERT key BEFORE|AFTER pivot element: finds the first pivot from the
// head, then moves the shorter side by one to open a gap.
type linsert struct {
	key, pivot, elem []byte
	after            bool
}

func parseLInsert(args [][]byte) (command.Runner, error) {
	x := linsert{key: args[1], pivot: args[3], elem: args[4]}
	switch {
	case command.Is(args[2], "after"):
		x.after = true
	case command.Is(args[2], "before"):
	default:
		return nil, rerr.ErrSyntax
	}
	return x, nil
}

func (x linsert) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Int(0)
		return nil
	}
	at, found := uint64(0), false
	err = l.Scan(l.Head(), l.Tail(), false, func(i uint64, v []byte) (bool, error) {
		if bytes.Equal(v, x.pivot) {
			at, found = i, true
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	if !found {
		c.W.Int(-1)
		return nil
	}
	if x.after {
		at++
	}
	if err := l.InsertAt(at, x.elem); err != nil {
		return err
	}
	c.W.Int(l.Len())
	return nil
}
