package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MONITOR: the connection then receives every command the server runs
// (see net/monitor.go for the line format and what is shown).
type monitorCmd struct{}

func parseMonitor([][]byte) (command.Runner, error) { return monitorCmd{}, nil }

func (monitorCmd) Run(c *command.Ctx) error {
	if c.Tx != nil { // inside EXEC: a reply per command is expected
		return rerr.Errorf("ERR MONITOR isn't allowed for DENY BLOCKING client")
	}
	c.Client.Session.StartMonitor()
	c.W.OK()
	return nil
}
