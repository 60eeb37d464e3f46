package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HLEN key: the field count kept in the meta, O(1).
type hlen struct{ key []byte }

func parseHLen(args [][]byte) (command.Runner, error) { return hlen{args[1]}, nil }

func (h hlen) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil {
		return err
	}
	var n int64
	if coll != nil {
		n = coll.Size()
	}
	c.W.Int(n)
	return nil
}
