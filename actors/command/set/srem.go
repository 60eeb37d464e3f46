package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SREM key member [member ...]
type srem struct {
	key     []byte
	members [][]byte
}

func parseSRem(args [][]byte) (command.Runner, error) { return srem{args[1], args[2:]}, nil }

func (s srem) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil || set == nil {
		c.W.Int(0)
		return err
	}
	n, err := rset.Remove(set, s.members)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
