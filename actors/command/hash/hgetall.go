package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HGETALL key, HKEYS key and HVALS key: every field and/or value, in field
// byte order.
type hgetAll struct {
	key          []byte
	fields, vals bool
}

func parseHGetAll(args [][]byte) (command.Runner, error) { return hgetAll{args[1], true, true}, nil }

func (h hgetAll) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil {
		return err
	}
	var items [][]byte
	if coll != nil {
		if items, err = all(coll, h.fields, h.vals); err != nil {
			return err
		}
	}
	if h.fields && h.vals {
		c.W.Map(len(items) / 2)
	} else {
		c.W.Array(len(items))
	}
	for _, it := range items {
		c.W.Bulk(it)
	}
	return nil
}

// all returns the hash's fields and/or values, interleaved when both.
func all(coll *store.Coll, fields, vals bool) ([][]byte, error) {
	var out [][]byte
	err := coll.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
		if fields {
			out = append(out, command.Copy(f))
		}
		if vals {
			out = append(out, command.Copy(v))
		}
		return true, nil
	})
	return out, err
}
