package list

import "github.com/rekv/rekv/actors/command"

// LINDEX key index: one point read. Like Redis, the key is checked before
// the index is parsed.
type lindex struct{ key, index []byte }

func parseLIndex(args [][]byte) (command.Runner, error) { return lindex{args[1], args[2]}, nil }

func (x lindex) Run(c *command.Ctx) error {
	l, err := open(c, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Null()
		return nil
	}
	n, err := command.Int(x.index)
	if err != nil {
		return err
	}
	i, ok := l.abs(n)
	if !ok {
		c.W.Null()
		return nil
	}
	v, err := l.get(i)
	if err != nil {
		return err
	}
	c.W.Bulk(v)
	return nil
}
