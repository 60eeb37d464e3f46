package strings

import "github.com/rekv/rekv/actors/command"

// GET key
type get struct{ key []byte }

func parseGet(args [][]byte) (command.Runner, error) { return get{key: args[1]}, nil }

func (g get) Run(c *command.Ctx) error {
	v, ok, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Bulk(v)
	return nil
}
