package rlist

import (
	"bytes"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// List is a list key open in a command's transaction.
type List struct {
	c          *store.Coll
	head, tail uint64
}

// Open returns key's list: nil if missing (unless create), WRONGTYPE if
// another type.
func Open(tx *store.Tx, key []byte, create bool) (*List, error) {
	coll, err := tx.Open(key, codec.TypeList, create)
	if err != nil || coll == nil {
		return nil, err
	}
	l := &List{c: coll}
	l.head, l.tail = coll.Bounds()
	return l, nil
}

func (l *List) Len() int64 { return int64(l.tail - l.head) }

// abs maps a Redis index (negative from the tail) to a list index.
func (l *List) Abs(i int64) (uint64, bool) {
	n := l.Len()
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return 0, false
	}
	return l.head + uint64(i), true
}

// get reads the element at list index i.
func (l *List) Get(i uint64) ([]byte, error) {
	v, ok, err := l.c.Get(codec.ListField(i))
	if err == nil && !ok {
		err = rerr.Errorf("ERR list %q: missing element", l.c.Key())
	}
	return v, err
}

// scan calls fn for the elements at list indexes [from, to), backwards
// with rev; fn's value is only valid during the call.
func (l *List) Scan(from, to uint64, rev bool, fn func(i uint64, v []byte) (bool, error)) error {
	return l.c.ListScan(from, to, rev, fn)
}

// values returns copies of the elements at [from, to), in index order.
func (l *List) Values(from, to uint64) ([][]byte, error) {
	out := make([][]byte, 0, min(to-from, 1024))
	err := l.Scan(from, to, false, func(_ uint64, v []byte) (bool, error) {
		out = append(out, bytes.Clone(v))
		return true, nil
	})
	return out, err
}

// push adds elements at the head (left) or tail, one at a time like Redis
// (LPUSH a b c leaves c first), and signals blocked clients.
func (l *List) Push(left bool, elems ...[]byte) error {
	for _, e := range elems {
		i := l.tail
		if left {
			l.head--
			i = l.head
		} else {
			l.tail++
		}
		if err := l.c.Put(codec.ListField(i), e); err != nil {
			return err
		}
	}
	l.c.Signal()
	return l.c.SetBounds(l.head, l.tail)
}

// pop removes up to n elements from the head (left) or tail and returns
// them in pop order.
func (l *List) Pop(left bool, n int64) ([][]byte, error) {
	n = min(n, l.Len())
	if n <= 0 {
		return nil, nil
	}
	var out [][]byte
	if n == 1 {
		i := l.tail - 1
		if left {
			i = l.head
		}
		v, err := l.Get(i)
		if err != nil {
			return nil, err
		}
		out = [][]byte{v}
	} else {
		from, to := l.head, l.head+uint64(n)
		if !left {
			from, to = l.tail-uint64(n), l.tail
		}
		out = make([][]byte, 0, n)
		err := l.Scan(from, to, !left, func(_ uint64, v []byte) (bool, error) {
			out = append(out, bytes.Clone(v))
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	for k := range out {
		i := l.head + uint64(k)
		if !left {
			i = l.tail - 1 - uint64(k)
		}
		if err := l.c.Remove(codec.ListField(i)); err != nil {
			return nil, err
		}
	}
	if left {
		l.head += uint64(len(out))
	} else {
		l.tail -= uint64(len(out))
	}
	return out, l.c.SetBounds(l.head, l.tail)
}

// insertAt inserts v so that it ends up before the element now at index
// gap (gap == tail appends), moving whichever side is shorter.
func (l *List) InsertAt(gap uint64, v []byte) error {
	if gap-l.head < l.tail-gap {
		// Move [head, gap) one to the left; v goes at gap-1.
		vs, err := l.Values(l.head, gap)
		if err != nil {
			return err
		}
		for k, e := range vs {
			if err := l.c.Put(codec.ListField(l.head-1+uint64(k)), e); err != nil {
				return err
			}
		}
		l.head--
		if err := l.c.Put(codec.ListField(gap-1), v); err != nil {
			return err
		}
	} else {
		// Move [gap, tail) one to the right; v goes at gap.
		vs, err := l.Values(gap, l.tail)
		if err != nil {
			return err
		}
		for k, e := range vs {
			if err := l.c.Put(codec.ListField(gap+1+uint64(k)), e); err != nil {
				return err
			}
		}
		l.tail++
		if err := l.c.Put(codec.ListField(gap), v); err != nil {
			return err
		}
	}
	return l.c.SetBounds(l.head, l.tail)
}

// span maps Redis's start/stop (negative from the end, clamped) to list
// indexes [from, to); empty when from >= to.
func (l *List) Span(start, stop int64) (from, to uint64) {
	n := l.Len()
	if start < 0 {
		start += n
	}
	if stop < 0 {
		stop += n
	}
	start = max(start, 0)
	if start > stop || start >= n {
		return l.head, l.head
	}
	stop = min(stop, n-1)
	return l.head + uint64(start), l.head + uint64(stop) + 1
}

// removeAt deletes the elements at the ascending indexes hits and closes
// the holes, moving the elements on the shorter side.
func (l *List) RemoveAt(hits []uint64) error {
	k := uint64(len(hits))
	switch {
	case k == 0:
		return nil
	case k == uint64(l.Len()):
		return l.c.Drop()
	}
	first, last := hits[0], hits[len(hits)-1]
	hit := make(map[uint64]bool, len(hits))
	for _, i := range hits {
		hit[i] = true
	}
	if l.tail-first <= last-l.head+1 {
		// Pack [first, tail) leftwards.
		vs, err := l.Values(first, l.tail)
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
				if err := l.c.Put(codec.ListField(dst), v); err != nil {
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
		vs, err := l.Values(l.head, last+1)
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
				if err := l.c.Put(codec.ListField(dst), vs[n]); err != nil {
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

// Trim keeps only the elements from start to stop (LTRIM's indexes),
// with the bounds and count kept: the list is dropped when nothing is
// kept, copied under a new version when fewer are kept than removed, and
// else trimmed at both ends in place.
func (l *List) Trim(start, stop int64) error {
	from, to := l.Span(start, stop)
	kept := to - from
	switch trimmed := uint64(l.Len()) - kept; {
	case kept == 0:
		return l.Drop()
	case trimmed == 0:
		return nil
	case kept < trimmed:
		return l.rewrite(from, to)
	}
	if err := l.deleteRange(l.Head(), from); err != nil {
		return err
	}
	if err := l.deleteRange(to, l.Tail()); err != nil {
		return err
	}
	l.head, l.tail = from, to
	return l.c.SetBounds(from, to)
}

// deleteRange deletes the elements at [from, to) without reading them.
func (l *List) deleteRange(from, to uint64) error {
	for i := from; i < to; i++ {
		if err := l.c.Remove(codec.ListField(i)); err != nil {
			return err
		}
	}
	return nil
}

// rewrite keeps only [from, to), copied under a new version at the same
// indexes; the old version becomes garbage.
func (l *List) rewrite(from, to uint64) error {
	vs, err := l.Values(from, to)
	if err != nil {
		return err
	}
	if err := l.c.Rebase(); err != nil {
		return err
	}
	for k, v := range vs {
		if err := l.c.Put(codec.ListField(from+uint64(k)), v); err != nil {
			return err
		}
	}
	l.head, l.tail = from, to
	return l.c.SetBounds(from, to)
}

// Head returns the index of the first element.
func (l *List) Head() uint64 { return l.head }

// Tail returns the index just past the last element.
func (l *List) Tail() uint64 { return l.tail }

// Key returns the list's user key.
func (l *List) Key() []byte { return l.c.Key() }

// Set overwrites the element at list index i (one point write).
func (l *List) Set(i uint64, v []byte) error { return l.c.Put(codec.ListField(i), v) }

// Drop deletes the whole list.
func (l *List) Drop() error { return l.c.Drop() }

// Note records a keyspace event for the list's key.
func (l *List) Note(class uint16, event string) { l.c.Note(class, event) }
