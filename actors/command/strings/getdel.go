package strings

import "github.com/rekv/rekv/actors/command"

// GETDEL key. A replica gets DEL key, as from Redis.
type getDel struct{ key []byte }

func parseGetDel(args [][]byte) (command.Runner, error) { return getDel{args[1]}, nil }

func (g getDel) Run(c *command.Ctx) error {
	v, found, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	if !found {
		c.W.Null()
		return nil
	}
	if _, err := c.Tx.Delete(g.key); err != nil {
		return err
	}
	if c.Effects() {
		c.Effect([]byte("DEL"), g.key) // replicated as DEL, as Redis does
	}
	c.W.Bulk(v)
	return nil
}
