package hash

import "github.com/rekv/rekv/actors/command"

// HEXISTS key field
type hexists struct{ key, field []byte }

func parseHExists(args [][]byte) (command.Runner, error) { return hexists{args[1], args[2]}, nil }

func (h hexists) Run(c *command.Ctx) error {
	coll, err := open(c, h.key, false)
	if err != nil || coll == nil {
		c.W.Int(0)
		return err
	}
	_, ok, err := coll.Get(h.field)
	if err != nil {
		return err
	}
	if ok {
		c.W.Int(1)
	} else {
		c.W.Int(0)
	}
	return nil
}
