package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HSTRLEN key field
type hstrlen struct{ key, field []byte }

func parseHStrlen(args [][]byte) (command.Runner, error) { return hstrlen{args[1], args[2]}, nil }

func (h hstrlen) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil || coll == nil {
		c.W.Int(0)
		return err
	}
	v, _, err := coll.Get(h.field)
	if err != nil {
		return err
	}
	c.W.Int(int64(len(v)))
	return nil
}
