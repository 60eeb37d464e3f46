package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MSETNX key value [key value ...]
type msetNX struct{ pairs [][]byte }

func parseMSetNX(args [][]byte) (command.Runner, error) {
	if len(args)%2 == 0 {
		return nil, rerr.ErrArity("msetnx")
	}
	return msetNX{args[1:]}, nil
}

func (m msetNX) Run(c *command.Ctx) error {
	for i := 0; i < len(m.pairs); i += 2 {
		found, err := c.Tx.Exists(m.pairs[i])
		if err != nil {
			return err
		}
		if found {
			c.W.Int(0)
			return nil
		}
	}
	if err := mset(m).setAll(c); err != nil {
		return err
	}
	c.W.Int(1)
	return nil
}
