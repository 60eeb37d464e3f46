package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZCARD key: the member count kept in the meta, O(1).
type zcard struct{ key []byte }

func parseZCard(args [][]byte) (command.Runner, error) { return zcard{args[1]}, nil }

func (z zcard) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	var n int64
	if ok {
		n = set.Size()
	}
	c.W.Int(n)
	return nil
}
