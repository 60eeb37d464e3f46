package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZREM key member [member ...]
type zrem struct {
	key     []byte
	members [][]byte
}

func parseZRem(args [][]byte) (command.Runner, error) { return zrem{args[1], args[2:]}, nil }

func (z zrem) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil || !ok {
		c.W.Int(0)
		return err
	}
	n, err := set.RemoveMembers(z.members)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
