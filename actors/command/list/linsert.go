package list

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
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
	l, err := open(c, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Int(0)
		return nil
	}
	at, found := uint64(0), false
	err = l.scan(l.head, l.tail, false, func(i uint64, v []byte) (bool, error) {
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
	if err := l.insertAt(at, x.elem); err != nil {
		return err
	}
	c.W.Int(l.len())
	return nil
}

// insertAt inserts v so that it ends up before the element now at index
// gap (gap == tail appends), moving whichever side is shorter.
func (l *list) insertAt(gap uint64, v []byte) error {
	if gap-l.head < l.tail-gap {
		// Move [head, gap) one to the left; v goes at gap-1.
		vs, err := l.values(l.head, gap)
		if err != nil {
			return err
		}
		for k, e := range vs {
			if err := l.c.Put(sub(l.head-1+uint64(k)), e); err != nil {
				return err
			}
		}
		l.head--
		if err := l.c.Put(sub(gap-1), v); err != nil {
			return err
		}
	} else {
		// Move [gap, tail) one to the right; v goes at gap.
		vs, err := l.values(gap, l.tail)
		if err != nil {
			return err
		}
		for k, e := range vs {
			if err := l.c.Put(sub(gap+1+uint64(k)), e); err != nil {
				return err
			}
		}
		l.tail++
		if err := l.c.Put(sub(gap), v); err != nil {
			return err
		}
	}
	return l.c.SetBounds(l.head, l.tail)
}
