package server

import "github.com/rekv/rekv/actors/command"

// MONITOR: the connection then receives every command the server runs
// (see net/monitor.go for the line format and what is shown).
type monitorCmd struct{}

func parseMonitor([][]byte) (command.Runner, error) { return monitorCmd{}, nil }

func (monitorCmd) Run(c *command.Ctx) error {
	c.Client.StartMonitor()
	c.W.OK()
	return nil
}
