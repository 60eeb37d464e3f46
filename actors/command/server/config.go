package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/glob"
	"github.com/rekv/rekv/actors/rerr"
)

// CONFIG GET parameter [parameter ...]
type configGet struct{ patterns [][]byte }

func parseConfigGet(args [][]byte) (command.Runner, error) { return configGet{args[2:]}, nil }

func (g configGet) Run(c *command.Ctx) error {
	var out [][2]string
	for _, p := range c.Server.Config() {
		for _, pat := range g.patterns {
			if glob.Match(pat, []byte(p[0]), true) {
				out = append(out, p)
				break
			}
		}
	}
	c.W.Map(len(out))
	for _, p := range out {
		c.W.BulkString(p[0])
		c.W.BulkString(p[1])
	}
	return nil
}

// CONFIG SET parameter value [parameter value ...]: all or nothing, and
// only run-time parameters (notify-keyspace-events).
type configSet struct{ pairs [][]byte }

func parseConfigSet(args [][]byte) (command.Runner, error) {
	if len(args)%2 != 0 {
		return nil, rerr.ErrArity("config|set")
	}
	return configSet{args[2:]}, nil
}

func (x configSet) Run(c *command.Ctx) error {
	for i := 0; i < len(x.pairs); i += 2 {
		if err := c.Server.SetConfig(string(x.pairs[i]), string(x.pairs[i+1])); err != nil {
			return err
		}
	}
	c.W.OK()
	return nil
}
