package strings

import "github.com/rekv/rekv/actors/command"

// GETSET key value
type getSet struct{ key, val []byte }

func parseGetSet(args [][]byte) (command.Runner, error) { return getSet{args[1], args[2]}, nil }

func (g getSet) Run(c *command.Ctx) error {
	old, found, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	if err := c.Tx.SetString(g.key, g.val, 0); err != nil {
		return err
	}
	if found {
		c.W.Bulk(old)
	} else {
		c.W.Null()
	}
	return nil
}
