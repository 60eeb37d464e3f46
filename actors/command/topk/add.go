package topk

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// maxIncr is RedisBloom's bound on one TOPK.INCRBY increment.
const maxIncr = 100000

// TOPK.ADD key item [item ...], TOPK.INCRBY key item increment [item
// increment ...]: counts each item (incr times) and answers, per item,
// the item it expelled from the top k, or nil.
type add struct {
	key   []byte
	items [][]byte
	incrs []uint32
	bad   error
}

func parseAdd(args [][]byte) (command.Runner, error) {
	a := add{key: args[1], items: args[2:]}
	for range a.items {
		a.incrs = append(a.incrs, 1)
	}
	return a, nil
}

func parseIncrBy(args [][]byte) (command.Runner, error) {
	if len(args)%2 != 0 {
		return nil, rerr.ErrArity("topk.incrby")
	}
	a := add{key: args[1]}
	for i := 2; i < len(args); i += 2 {
		n, err := command.Int(args[i+1])
		if err != nil || n < 1 || n > maxIncr {
			a.bad = rerr.Errorf("TopK: increment must be an integer greater or equal to 1 and less or equal to 100,000")
			return a, nil
		}
		a.items, a.incrs = append(a.items, args[i]), append(a.incrs, uint32(n))
	}
	return a, nil
}

func (a add) Run(c *command.Ctx) error {
	t, err := open(c, a.key)
	if err != nil {
		return err
	}
	if a.bad != nil {
		return a.bad
	}
	out := make([][]byte, len(a.items))
	for i, it := range a.items {
		if out[i], err = t.Add(it, a.incrs[i]); err != nil {
			return err
		}
	}
	if err := t.Flush(); err != nil {
		return err
	}
	c.W.Array(len(out))
	for _, e := range out {
		if e == nil {
			c.W.Null()
		} else {
			c.W.Bulk(e)
		}
	}
	return nil
}
