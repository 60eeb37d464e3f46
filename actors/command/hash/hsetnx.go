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
	set, err := rhash.SetNX(coll, h.field, h.val, c.EncodingLimits().Hash)
	if err != nil {
		return err
	}
	if set {
		c.W.Int(1)
	} else {
		c.W.Int(0)
	}
	return nil
}
