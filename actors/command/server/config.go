package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// CONFIG GET parameter [parameter ...]
type configGet struct{ patterns [][]byte }

func parseConfigGet(args [][]byte) (command.Runner, error) { return configGet{args[2:]}, nil }

func (g configGet) Run(c *command.Ctx) error {
	out := c.Server.Config.ConfigGet(g.patterns)
	c.W.Map(len(out))
	for _, p := range out {
		c.W.BulkString(p[0])
		c.W.BulkString(p[1])
	}
	return nil
}

// CONFIG SET parameter value [parameter value ...]: all or nothing (see
// net/config.go for what each parameter does in rekv).
type configSet struct{ pairs [][]byte }

func parseConfigSet(args [][]byte) (command.Runner, error) {
	if len(args)%2 != 0 { // CONFIG SET's arity (-4) is checked before: an odd pair count
		return nil, rerr.ErrSyntax
	}
	return configSet{args[2:]}, nil
}

func (x configSet) Run(c *command.Ctx) error {
	pairs := make([][2]string, 0, len(x.pairs)/2)
	for i := 0; i < len(x.pairs); i += 2 {
		pairs = append(pairs, [2]string{string(x.pairs[i]), string(x.pairs[i+1])})
	}
	if err := c.Server.Config.SetConfig(pairs); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
