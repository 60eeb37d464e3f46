package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HGET key field
type hget struct{ key, field []byte }

func parseHGet(args [][]byte) (command.Runner, error) { return hget{args[1], args[2]}, nil }

func (h hget) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil || coll == nil {
		c.W.Null()
		return err
	}
	v, ok, err := coll.Get(h.field)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Bulk(v)
	return nil
}
