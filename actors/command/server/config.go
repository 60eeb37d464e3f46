package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/glob"
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
