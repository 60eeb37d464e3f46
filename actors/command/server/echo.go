package server

import "github.com/rekv/rekv/actors/command"

// ECHO message
type echo struct{ msg []byte }

func parseEcho(args [][]byte) (command.Runner, error) { return echo{args[1]}, nil }

func (e echo) Run(c *command.Ctx) error {
	c.W.Bulk(e.msg)
	return nil
}
