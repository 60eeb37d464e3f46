package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MSET key value [key value ...]
//
// MSET is atomic across shards: the router holds every shard of its keys.
type mset struct{ pairs [][]byte }

func parseMSet(args [][]byte) (command.Runner, error) {
	if len(args)%2 == 0 {
		return nil, rerr.ErrArity("mset")
	}
	return mset{args[1:]}, nil
}

func (m mset) Run(c *command.Ctx) error {
	if err := m.setAll(c); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

func (m mset) setAll(c *command.Ctx) error {
	for i := 0; i < len(m.pairs); i += 2 {
		if err := c.Tx.SetString(m.pairs[i], m.pairs[i+1], 0); err != nil {
			return err
		}
	}
	return nil
}
