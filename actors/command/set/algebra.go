package set

import (
	"bytes"
	"slices"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rset"
)

// SINTER key [key ...], SUNION key [key ...], SDIFF key [key ...] and their
// STORE forms (destination first). Missing keys are empty sets; every key
// is type-checked first, as Redis does. The STORE forms are atomic across
// shards and replace the destination, deleting it for an empty result.
type algebra struct {
	op    op
	dst   []byte
	keys  [][]byte
	store bool
}

type op int

const (
	inter op = iota
	union
	diff
)

func algebraParser(o op, store bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		if store {
			return algebra{op: o, dst: args[1], keys: args[2:], store: true}, nil
		}
		return algebra{op: o, keys: args[1:]}, nil
	}
}

// openAll opens every key as a set (nil for missing), type-checking all.
func openAll(c *command.Ctx, keys [][]byte) ([]*store.Coll, error) {
	sets := make([]*store.Coll, len(keys))
	for i, k := range keys {
		s, err := rset.Open(c.Tx, k, false)
		if err != nil {
			return nil, err
		}
		sets[i] = s
	}
	return sets, nil
}

// compute returns the members of the operation's result, in byte order,
// stopping an intersection once limit members are found (limit > 0).
func compute(o op, sets []*store.Coll, limit int) ([][]byte, error) {
	switch o {
	case inter:
		for _, s := range sets {
			if s == nil {
				return nil, nil
			}
		}
		// Walk the smallest set, probing the others.
		order := slices.Clone(sets)
		slices.SortFunc(order, func(a, b *store.Coll) int { return int(a.Size() - b.Size()) })
		var out [][]byte
		err := order[0].Scan(nil, nil, false, 0, func(m, _ []byte) (bool, error) {
			for _, s := range order[1:] {
				if ok, err := rset.IsMember(s, m); err != nil || !ok {
					return err == nil, err
				}
			}
			out = append(out, command.Copy(m))
			return limit <= 0 || len(out) < limit, nil
		})
		return out, err
	case union:
		seen := map[string]bool{}
		for _, s := range sets {
			ms, err := rset.Members(s)
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				seen[string(m)] = true
			}
		}
		out := make([][]byte, 0, len(seen))
		for m := range seen {
			out = append(out, []byte(m))
		}
		slices.SortFunc(out, bytes.Compare)
		return out, nil
	default: // diff
		var out [][]byte
		if sets[0] == nil {
			return nil, nil
		}
		err := sets[0].Scan(nil, nil, false, 0, func(m, _ []byte) (bool, error) {
			for _, s := range sets[1:] {
				if ok, err := rset.IsMember(s, m); err != nil || ok {
					return err == nil, err
				}
			}
			out = append(out, command.Copy(m))
			return true, nil
		})
		return out, err
	}
}

func (a algebra) Run(c *command.Ctx) error {
	sets, err := openAll(c, a.keys)
	if err != nil {
		return err
	}
	result, err := compute(a.op, sets, 0)
	if err != nil {
		return err
	}
	if !a.store {
		writeSet(c, result)
		return nil
	}
	if _, err := c.Tx.Delete(a.dst); err != nil {
		return err
	}
	if len(result) > 0 {
		dst, err := rset.Open(c.Tx, a.dst, true)
		if err != nil {
			return err
		}
		if _, err := rset.Add(dst, result, c.EncodingLimits().IntsetEntries); err != nil {
			return err
		}
	}
	c.W.Int(int64(len(result)))
	return nil
}
