package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HMGET key field [field ...]
type hmget struct {
	key    []byte
	fields [][]byte
}

func parseHMGet(args [][]byte) (command.Runner, error) { return hmget{args[1], args[2:]}, nil }

func (h hmget) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil {
		return err
	}
	vals := make([][]byte, len(h.fields))
	found := make([]bool, len(h.fields))
	if coll != nil {
		for i, f := range h.fields {
			if vals[i], found[i], err = coll.Get(f); err != nil {
				return err
			}
		}
	}
	c.W.Array(len(vals))
	for i, v := range vals {
		if found[i] {
			c.W.Bulk(v)
		} else {
			c.W.Null()
		}
	}
	return nil
}
