package list

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LREM key count element: removes up to |count| matches from the head
// (count > 0), the tail (count < 0), or all (0), then closes the holes by
// moving the shorter side.
type lrem struct {
	key, elem []byte
	count     int64
}

func parseLRem(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	return lrem{key: args[1], elem: args[3], count: n}, nil
}

func (x lrem) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Int(0)
		return nil
	}
	limit := x.count
	if limit < 0 {
		limit = -limit // -2^63 stays negative: no limit, like "all"
	}
	var hits []uint64 // ascending
	err = l.Scan(l.Head(), l.Tail(), x.count < 0, func(i uint64, v []byte) (bool, error) {
		if bytes.Equal(v, x.elem) {
			hits = append(hits, i)
			if limit > 0 && int64(len(hits)) == limit {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	if x.count < 0 {
		for i, j := 0, len(hits)-1; i < j; i, j = i+1, j-1 {
			hits[i], hits[j] = hits[j], hits[i]
		}
	}
	if err := l.RemoveAt(hits); err != nil {
		return err
	}
	c.W.Int(int64(len(hits)))
	return nil
}
