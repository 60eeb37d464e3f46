package list

import (
	"encoding/binary"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Commands returns the list commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	two := command.KeySpec{First: 1, Last: 2, Step: 1}
	blockKeys := command.KeySpec{First: 1, Last: -2, Step: 1}
	block := command.Write | command.Blocking
	return []*command.Spec{
		{Name: "lpush", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(true, false)},
		{Name: "rpush", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(false, false)},
		{Name: "lpushx", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(true, true)},
		{Name: "rpushx", Arity: -3, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: pushParser(false, true)},
		{Name: "lpop", Arity: -2, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: popParser("lpop", true)},
		{Name: "rpop", Arity: -2, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: popParser("rpop", false)},
		{Name: "llen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseLLen},
		{Name: "lindex", Arity: 3, Flags: command.ReadOnly, Keys: first, Parse: parseLIndex},
		{Name: "lset", Arity: 4, Flags: command.Write, Keys: first, Event: "lset", Parse: parseLSet},
		{Name: "lrange", Arity: 4, Flags: command.ReadOnly, Keys: first, Parse: parseLRange},
		{Name: "ltrim", Arity: 4, Flags: command.Write, Keys: first, Event: "ltrim", Parse: parseLTrim},
		{Name: "linsert", Arity: 5, Flags: command.Write, Keys: first, Event: "linsert", Parse: parseLInsert},
		{Name: "lrem", Arity: 4, Flags: command.Write, Keys: first, Event: "lrem", Parse: parseLRem},
		{Name: "lpos", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseLPos},
		{Name: "lmove", Arity: 5, Flags: command.Write | command.OwnEvents, Keys: two, Parse: parseLMove},
		{Name: "rpoplpush", Arity: 3, Flags: command.Write | command.OwnEvents, Keys: two, Parse: parseRPopLPush},
		{Name: "lmpop", Arity: -4, Flags: command.Write | command.OwnEvents, KeysFunc: command.NumKeys(1, false), Parse: parseLMPop},
		{Name: "blpop", Arity: -3, Flags: block | command.OwnEvents, Keys: blockKeys, Parse: bpopParser(true)},
		{Name: "brpop", Arity: -3, Flags: block | command.OwnEvents, Keys: blockKeys, Parse: bpopParser(false)},
		{Name: "blmove", Arity: 6, Flags: block | command.OwnEvents, Keys: two, Parse: parseBLMove},
		{Name: "brpoplpush", Arity: 4, Flags: block | command.OwnEvents, Keys: two, Parse: parseBRPopLPush},
		{Name: "blmpop", Arity: -5, Flags: block | command.OwnEvents, KeysFunc: command.NumKeys(2, false), Parse: parseBLMPop},
	}
}

// list is a list key open in a command's transaction.
type list struct {
	c          *store.Coll
	head, tail uint64
}

// open returns key's list: nil if missing (unless create), WRONGTYPE if
// another type.
func open(c *command.Ctx, key []byte, create bool) (*list, error) {
	coll, err := c.Tx.Open(key, codec.TypeList, create)
	if err != nil || coll == nil {
		return nil, err
	}
	l := &list{c: coll}
	l.head, l.tail = coll.Bounds()
	return l, nil
}

// sub returns the sub-key field of list index i.
func sub(i uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), i) }

func (l *list) len() int64 { return int64(l.tail - l.head) }

// abs maps a Redis index (negative from the tail) to a list index.
func (l *list) abs(i int64) (uint64, bool) {
	n := l.len()
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return 0, false
	}
	return l.head + uint64(i), true
}

// get reads the element at list index i.
func (l *list) get(i uint64) ([]byte, error) {
	v, ok, err := l.c.Get(sub(i))
	if err == nil && !ok {
		err = rerr.Errorf("ERR list %q: missing element", l.c.Key())
	}
	return v, err
}

// scan calls fn for the elements at list indexes [from, to), backwards
// with rev; fn's value is only valid during the call.
func (l *list) scan(from, to uint64, rev bool, fn func(i uint64, v []byte) (bool, error)) error {
	if from >= to {
		return nil
	}
	return l.c.Scan(sub(from), sub(to), rev, int(min(to-from, 1<<30)), func(f, v []byte) (bool, error) {
		return fn(binary.BigEndian.Uint64(f), v)
	})
}

// values returns copies of the elements at [from, to), in index order.
func (l *list) values(from, to uint64) ([][]byte, error) {
	out := make([][]byte, 0, min(to-from, 1024))
	err := l.scan(from, to, false, func(_ uint64, v []byte) (bool, error) {
		out = append(out, command.Copy(v))
		return true, nil
	})
	return out, err
}

// push adds elements at the head (left) or tail, one at a time like Redis
// (LPUSH a b c leaves c first), and signals blocked clients.
func (l *list) push(left bool, elems ...[]byte) error {
	for _, e := range elems {
		i := l.tail
		if left {
			l.head--
			i = l.head
		} else {
			l.tail++
		}
		if err := l.c.Put(sub(i), e); err != nil {
			return err
		}
	}
	l.c.Signal()
	ev := "rpush"
	if left {
		ev = "lpush"
	}
	l.c.Note(uint16(command.NotifyList), ev)
	return l.c.SetBounds(l.head, l.tail)
}

// pop removes up to n elements from the head (left) or tail and returns
// them in pop order.
func (l *list) pop(left bool, n int64) ([][]byte, error) {
	n = min(n, l.len())
	if n <= 0 {
		return nil, nil
	}
	var out [][]byte
	if n == 1 {
		i := l.tail - 1
		if left {
			i = l.head
		}
		v, err := l.get(i)
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
		err := l.scan(from, to, !left, func(_ uint64, v []byte) (bool, error) {
			out = append(out, command.Copy(v))
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
		if err := l.c.Remove(sub(i)); err != nil {
			return nil, err
		}
	}
	ev := "rpop"
	if left {
		l.head += uint64(len(out))
		ev = "lpop"
	} else {
		l.tail -= uint64(len(out))
	}
	l.c.Note(uint16(command.NotifyList), ev)
	return out, l.c.SetBounds(l.head, l.tail)
}

// side parses LEFT or RIGHT.
func side(arg []byte) (left bool, err error) {
	switch {
	case command.Is(arg, "left"):
		return true, nil
	case command.Is(arg, "right"):
		return false, nil
	}
	return false, rerr.ErrSyntax
}
