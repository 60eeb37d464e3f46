package cuckoo

import "github.com/rekv/rekv/actors/command"

// CF.EXISTS key item, CF.MEXISTS key item [item ...], CF.COUNT key item:
// whether each item's fingerprint is in the filter, or how many times
// (0 on a missing key).
type check struct {
	key   []byte
	items [][]byte
	multi bool
	count bool
}

func parseCheck(multi, count bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return check{key: args[1], items: args[2:], multi: multi, count: count}, nil
	}
}

func (k check) Run(c *command.Ctx) error {
	f, err := open(c, k.key)
	if err != nil && err != errNotFound {
		return err
	}
	out := make([]int64, len(k.items))
	if f != nil {
		for i, it := range k.items {
			if k.count {
				n, err := f.Count(it)
				if err != nil {
					return err
				}
				out[i] = int64(n)
				continue
			}
			ok, err := f.Exists(it)
			if err != nil {
				return err
			}
			if ok {
				out[i] = 1
			}
		}
	}
	c.Ints(out, k.multi)
	return nil
}
