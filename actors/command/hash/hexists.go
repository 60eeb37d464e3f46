package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HEXISTS key field
type hexists struct{ key, field []byte }

func parseHExists(args [][]byte) (command.Runner, error) { return hexists{args[1], args[2]}, nil }

func (h hexists) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil || coll == nil {
		c.W.Int(0)
		return err
	}
	ok, err := coll.Has(h.field)
	if err != nil {
		return err
	}
	if ok {
		c.W.Int(1)
	} else {
		c.W.Int(0)
	}
	return nil
}
