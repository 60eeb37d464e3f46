package keys

import "github.com/rekv/rekv/actors/command"

// PERSIST key
type persist struct{ key []byte }

func parsePersist(args [][]byte) (command.Runner, error) { return persist{args[1]}, nil }

func (p persist) Run(c *command.Ctx) error {
	m, ok, err := c.Tx.Meta(p.key)
	if err != nil {
		return err
	}
	if !ok || m.ExpireAt == 0 {
		c.W.Int(0)
		return nil
	}
	if _, err := c.Tx.SetExpire(p.key, 0); err != nil {
		return err
	}
	c.W.Int(1)
	return nil
}
