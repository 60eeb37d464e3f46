package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HSETNX key field value
type hsetNX struct{ key, field, val []byte }

func parseHSetNX(args [][]byte) (command.Runner, error) {
	return hsetNX{args[1], args[2], args[3]}, nil
}

func (h hsetNX) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, true)
	if err != nil {
		return err
	}
	if exists, err := coll.Has(h.field); err != nil || exists {
		c.W.Int(0)
		return err
	}
	if err := coll.Put(h.field, h.val); err != nil {
		return err
	}
	if err := coll.Grow(1); err != nil {
		return err
	}
	c.W.Int(1)
	return nil
}
