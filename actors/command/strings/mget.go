package strings

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// MGET key [key ...]
type mget struct{ keys [][]byte }

func parseMGet(args [][]byte) (command.Runner, error) { return mget{args[1:]}, nil }

func (m mget) Run(c *command.Ctx) error {
	vals := make([][]byte, len(m.keys))
	for i, k := range m.keys {
		if i%store.MaxWarm == 0 {
			warmEvery(c.Tx, m.keys[i:], 1)
		}
		v, ok, err := c.Tx.GetString(k)
		if errors.Is(err, rerr.ErrWrongType) {
			continue // MGET answers nil for keys of other types
		}
		if err != nil {
			return err
		}
		if ok {
			vals[i] = v
		}
	}
	c.W.Array(len(vals))
	for _, v := range vals {
		if v == nil {
			c.W.Null()
		} else {
			c.W.Bulk(v)
		}
	}
	return nil
}
