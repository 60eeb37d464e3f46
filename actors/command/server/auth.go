package server

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/namespaces"
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
// the connection that user, in the user's namespace (the default one
// unless an ACL rule binds it to another); a wrong pair is logged (ACL
// LOG). For the default user, a pass that is not its password may be a
// namespace's token: the connection then enters that namespace, as
// kvrocks's AUTH <token> does.
func authenticate(c *command.Ctx, user, pass []byte) error {
	name := "default"
	if user != nil {
		name = string(user)
	}
	var ns uint32
	err := c.Server.Config.CheckAuth(user, pass)
	if err == nil {
		ns, err = boundNamespace(c, name)
	}
	if name == "default" && (err != nil || openDefault(c)) && c.Server.Namespaces != nil {
		// A token (a default user without a password takes any
		// password, so a token counts first then).
		if t, ok := c.Server.Namespaces.ByToken(string(pass)); ok {
			ns, err = t.ID, nil
		}
	}
	if err != nil {
		if errors.Is(err, rerr.ErrWrongPass) {
			c.Server.Config.ACL().Log("auth", "toplevel", "AUTH", name, c.Client.Conn.Info())
		}
		return err
	}
	if err := roomIn(c, ns); err != nil {
		return err
	}
	c.Client.Auth.SetAuthenticated()
	c.Client.Auth.SetUser(name)
	c.Client.Conn.SetDB(command.NamespaceDB(ns, command.UserDB(c.Client.Conn.DB())))
	return nil
}

// roomIn refuses a connection entering namespace ns when its
// max-clients quota is reached on this node.
func roomIn(c *command.Ctx, ns uint32) error {
	if ns == 0 || ns == command.NamespaceOf(c.Client.Conn.DB()) || c.Server.Namespaces == nil {
		return nil
	}
	t, ok := c.Server.Namespaces.ByID(ns)
	if ok && t.Quota.Clients > 0 && int64(c.Server.Clients.NamespaceClients(ns)) >= t.Quota.Clients {
		return rerr.Errorf("ERR namespace '%s' is at its quota of %d connections (max-clients)", t.Name, t.Quota.Clients)
	}
	return nil
}

// openDefault reports whether the default user needs no password.
func openDefault(c *command.Ctx) bool {
	u := c.Server.Config.ACL().User("default")
	return u != nil && u.NoPass
}

// boundNamespace returns the namespace user name is bound to (ACL rule
// namespace=<name>; 0: the default one).
func boundNamespace(c *command.Ctx, name string) (uint32, error) {
	u := c.Server.Config.ACL().User(name)
	if u == nil || u.Namespace == "" || u.Namespace == namespaces.Default {
		return 0, nil
	}
	if c.Server.Namespaces != nil {
		if t, ok := c.Server.Namespaces.Get(u.Namespace); ok {
			return t.ID, nil
		}
	}
	return 0, rerr.Errorf("ERR user '%s' is bound to namespace '%s', which does not exist", name, u.Namespace)
}
