package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.ADD key item, BF.MADD key item [item ...]: 1 for an item added, 0
// for one the filter may hold already; a missing key becomes a filter
// with the defaults. BF.MADD answers an array, with the error in place of
// the item a full non-scaling filter refused (and no item after it).
type add struct {
	key   []byte
	items [][]byte
	multi bool
}

func parseAdd(args [][]byte) (command.Runner, error) { return add{key: args[1], items: args[2:]}, nil }

func parseMAdd(args [][]byte) (command.Runner, error) {
	return add{key: args[1], items: args[2:], multi: true}, nil
}

func (a add) Run(c *command.Ctx) error {
	return insertItems(c, a.key, a.items, a.multi, insertOpts{create: true, errorRate: defaultError,
		capacity: defaultCapacity, expansion: defaultExpansion})
}

// insertOpts is how BF.ADD, BF.MADD and BF.INSERT create a missing
// filter.
type insertOpts struct {
	create     bool
	errorRate  float64
	capacity   uint64
	expansion  uint32
	nonScaling bool
}

// insertItems adds items to the filter at key (made with o when missing
// and o.create), replying one integer, or an array when multi.
func insertItems(c *command.Ctx, key []byte, items [][]byte, multi bool, o insertOpts) error {
	f, err := rbloom.Open(c.Tx, key)
	if err != nil {
		return err
	}
	if f == nil {
		if !o.create {
			return errNotFound
		}
		chain, err := rbloom.NewChain(o.capacity, o.errorRate, o.expansion, o.nonScaling)
		if err != nil {
			return errBadCreate
		}
		if f, err = rbloom.Create(c.Tx, key, chain); err != nil {
			return err
		}
	}
	replies := make([]int64, 0, len(items))
	var stop error
	for _, it := range items {
		added, err := f.Add(it)
		if err != nil {
			if stop = addError(err); stop == err {
				return err // a storage error
			}
			break
		}
		replies = append(replies, b2i(added))
	}
	if err := f.Flush(); err != nil {
		return err
	}
	if !multi {
		if stop != nil {
			return stop
		}
		c.W.Int(replies[0])
		return nil
	}
	n := len(replies)
	if stop != nil {
		n++
	}
	c.W.Array(n)
	for _, r := range replies {
		c.W.Int(r)
	}
	if stop != nil {
		command.Reply(c.W, stop, "", nil)
	}
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
