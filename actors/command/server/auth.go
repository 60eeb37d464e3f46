package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// AUTH [username] password. Without requirepass the only user, "default",
// takes any password, and a bare password is an error, as in Redis.
type auth struct{ user, pass []byte }

func parseAuth(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return auth{pass: args[1]}, nil
	case 3:
		return auth{user: args[1], pass: args[2]}, nil
	}
	return nil, rerr.ErrSyntax
}

func (a auth) Run(c *command.Ctx) error {
	if err := c.Server.CheckAuth(a.user, a.pass); err != nil {
		return err
	}
	c.Client.SetAuthenticated()
	c.W.OK()
	return nil
}
