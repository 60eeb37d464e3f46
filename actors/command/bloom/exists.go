package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.EXISTS key item, BF.MEXISTS key item [item ...]: 1 for an item the
// filter may hold, 0 for one it surely does not (0 on a missing key).
type exists struct {
	key   []byte
	items [][]byte
	multi bool
}

func parseExists(args [][]byte) (command.Runner, error) {
	return exists{key: args[1], items: args[2:]}, nil
}

func parseMExists(args [][]byte) (command.Runner, error) {
	return exists{key: args[1], items: args[2:], multi: true}, nil
}

func (e exists) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, e.key)
	if err != nil {
		return err
	}
	out := make([]int64, len(e.items))
	if f != nil {
		for i, it := range e.items {
			ok, err := f.Exists(it)
			if err != nil {
				return err
			}
			out[i] = b2i(ok)
		}
	}
	c.Ints(out, e.multi)
	return nil
}
