package server

import (
	"errors"

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
	if err := authenticate(c, a.user, a.pass); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// authenticate checks user (nil: default) and pass, and on success makes
// the connection that user; a wrong pair is logged (ACL LOG).
func authenticate(c *command.Ctx, user, pass []byte) error {
	name := "default"
	if user != nil {
		name = string(user)
	}
	if err := c.Server.Config.CheckAuth(user, pass); err != nil {
		if errors.Is(err, rerr.ErrWrongPass) {
			c.Server.Config.ACL().Log("auth", "toplevel", "AUTH", name, c.Client.Conn.Info())
		}
		return err
	}
	c.Client.Auth.SetAuthenticated()
	c.Client.Auth.SetUser(name)
	return nil
}
