package cuckoo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// CF.ADD / CF.ADDNX key item, CF.INSERT / CF.INSERTNX key [CAPACITY n]
// [NOCREATE] ITEMS item [item ...]: 1 for an item added, 0 (NX) for one
// whose fingerprint is there, and for INSERT -1 for one no slot could be
// made for (CF.ADD: ERR Filter is full). A missing key becomes a filter
// of the default (or given) capacity, unless NOCREATE.
type add struct {
	key      []byte
	items    [][]byte
	nx       bool
	multi    bool
	create   bool
	capacity uint64
}

func parseAdd(nx bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return add{key: args[1], items: args[2:], nx: nx, create: true, capacity: defaultCapacity}, nil
	}
}

func parseInsert(nx bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		a := add{key: args[1], nx: nx, multi: true, create: true, capacity: defaultCapacity}
		name := "cf.insert"
		if nx {
			name = "cf.insertnx"
		}
		i := 2
		for ; i < len(args) && a.items == nil; i++ {
			switch {
			case command.Is(args[i], "items"):
				a.items = args[i+1:]
			case command.Is(args[i], "capacity"):
				if i+1 == len(args) {
					return nil, rerr.ErrArity(name)
				}
				n, err := command.Int(args[i+1])
				if err != nil || n < 0 || n > maxCapacity {
					return nil, rerr.Errorf("ERR Bad capacity")
				}
				if n < 2*defaultBucketSize {
					return nil, errTooSmall
				}
				a.capacity = uint64(n)
				i++
			case command.Is(args[i], "nocreate"):
				a.create = false
			default:
				return nil, rerr.Errorf("ERR Unknown argument received")
			}
		}
		if len(a.items) == 0 {
			return nil, rerr.ErrArity(name)
		}
		return a, nil
	}
}

func (a add) Run(c *command.Ctx) error {
	f, err := rcuckoo.Open(c.Tx, a.key)
	if err != nil {
		return err
	}
	if f == nil {
		if !a.create {
			return errNotFound
		}
		h := rcuckoo.NewHeader(a.capacity, defaultBucketSize, defaultIterations, defaultExpansion)
		if f, err = rcuckoo.Create(c.Tx, a.key, h); err != nil {
			return err
		}
	}
	if f.H.Filters >= rcuckoo.MaxFilters {
		return rerr.Errorf("ERR Maximum expansions reached")
	}
	out := make([]int64, len(a.items))
	for i, it := range a.items {
		s, err := f.Insert(it, a.nx)
		if err != nil {
			return err
		}
		if s == rcuckoo.NoSpace && !a.multi {
			if err := f.Flush(); err != nil {
				return err
			}
			return rerr.Errorf("ERR Filter is full")
		}
		out[i] = int64(s)
	}
	if err := f.Flush(); err != nil {
		return err
	}
	c.Ints(out, a.multi)
	return nil
}
