package zset

import "github.com/rekv/rekv/actors/command"

// ZREM key member [member ...]
type zrem struct {
	key     []byte
	members [][]byte
}

func parseZRem(args [][]byte) (command.Runner, error) { return zrem{args[1], args[2:]}, nil }

func (z zrem) Run(c *command.Ctx) error {
	set, ok, err := open(c, z.key, false)
	if err != nil || !ok {
		c.W.Int(0)
		return err
	}
	n, err := set.remove(z.members)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
