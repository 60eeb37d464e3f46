package list

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
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
	l, err := open(c, x.key, false)
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
	err = l.scan(l.head, l.tail, x.count < 0, func(i uint64, v []byte) (bool, error) {
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
	if err := l.removeAt(hits); err != nil {
		return err
	}
	c.W.Int(int64(len(hits)))
	return nil
}

// removeAt deletes the elements at the ascending indexes hits and closes
// the holes, moving the elements on the shorter side.
func (l *list) removeAt(hits []uint64) error {
	k := uint64(len(hits))
	switch {
	case k == 0:
		return nil
	case k == uint64(l.len()):
		return l.c.Drop()
	}
	first, last := hits[0], hits[len(hits)-1]
	hit := make(map[uint64]bool, len(hits))
	for _, i := range hits {
		hit[i] = true
	}
	if l.tail-first <= last-l.head+1 {
		// Pack [first, tail) leftwards.
		vs, err := l.values(first, l.tail)
		if err != nil {
			return err
		}
		dst := first
		for n, v := range vs {
			i := first + uint64(n)
			if hit[i] {
				continue
			}
			if i != dst {
				if err := l.c.Put(sub(dst), v); err != nil {
					return err
				}
			}
			dst++
		}
		if err := l.deleteRange(l.tail-k, l.tail); err != nil {
			return err
		}
		l.tail -= k
	} else {
		// Pack [head, last] rightwards.
		vs, err := l.values(l.head, last+1)
		if err != nil {
			return err
		}
		dst := last
		for n := len(vs) - 1; n >= 0; n-- {
			i := l.head + uint64(n)
			if hit[i] {
				continue
			}
			if i != dst {
				if err := l.c.Put(sub(dst), vs[n]); err != nil {
					return err
				}
			}
			dst--
		}
		if err := l.deleteRange(l.head, l.head+k); err != nil {
			return err
		}
		l.head += k
	}
	return l.c.SetBounds(l.head, l.tail)
}
