package list

import "github.com/rekv/rekv/actors/command"

// LLEN key: O(1) from the meta.
type llen struct{ key []byte }

func parseLLen(args [][]byte) (command.Runner, error) { return llen{args[1]}, nil }

func (x llen) Run(c *command.Ctx) error {
	l, err := open(c, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if l != nil {
		n = l.len()
	}
	c.W.Int(n)
	return nil
}
