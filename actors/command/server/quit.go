package server

import "github.com/rekv/rekv/actors/command"

// QUIT: reply OK, then close the connection.
type quit struct{}

func parseQuit([][]byte) (command.Runner, error) { return quit{}, nil }

func (quit) Run(c *command.Ctx) error {
	c.Client.Conn.CloseAfterReply()
	c.W.OK()
	return nil
}
