package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// The list commands record their own keyspace events (Spec flag
// OwnEvents): the event names the side, which only the command knows.

// pushNoted adds elems at the head (left) or tail and records lpush or rpush.
func pushNoted(l *rlist.List, left bool, elems ...[]byte) error {
	if err := l.Push(left, elems...); err != nil {
		return err
	}
	l.Note(uint16(command.NotifyList), side2(left, "lpush", "rpush"))
	return nil
}

// popNoted removes up to n elements from the head (left) or tail and records
// lpop or rpop when it removed some.
func popNoted(l *rlist.List, left bool, n int64) ([][]byte, error) {
	vs, err := l.Pop(left, n)
	if err == nil && len(vs) > 0 {
		l.Note(uint16(command.NotifyList), side2(left, "lpop", "rpop"))
	}
	return vs, err
}

func side2(left bool, l, r string) string {
	if left {
		return l
	}
	return r
}
