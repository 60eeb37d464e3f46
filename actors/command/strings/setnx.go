package strings

import "github.com/rekv/rekv/actors/command"

// SETNX key value
type setNX struct{ key, val []byte }

func parseSetNX(args [][]byte) (command.Runner, error) { return setNX{args[1], args[2]}, nil }

func (s setNX) Run(c *command.Ctx) error {
	found, err := c.Tx.Exists(s.key)
	if err != nil {
		return err
	}
	if found {
		c.W.Int(0)
		return nil
	}
	if err := c.Tx.SetString(s.key, s.val, 0); err != nil {
		return err
	}
	c.W.Int(1)
	return nil
}
