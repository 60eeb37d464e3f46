package server

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/namespaces"
)

// NAMESPACE ADD name token | SET name token | DEL name | GET name | GET *,
// as kvrocks has them: the administrator's (command.Admin). A namespace
// is entered with AUTH <token>; its definition lives in the store, so
// every node of the store serves it. DEL makes the namespace's data
// unreachable at once (its 16 databases are flushed: O(1), the GC
// reclaims the data) and closes this node's connections in it; other
// nodes close theirs when they next read the definitions.
type namespaceCmd struct {
	op          string // "add", "set", "del", "get"
	name, token string
}

func namespaceParser(op string) func(args [][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		x := namespaceCmd{op: op, name: string(args[2])}
		if len(args) > 3 {
			x.token = string(args[3])
		}
		return x, nil
	}
}

// namespaceError words the registry's refusals as Redis errors.
func namespaceError(err error) error {
	for _, e := range []error{namespaces.ErrExists, namespaces.ErrTokenExists, namespaces.ErrNotFound,
		namespaces.ErrDefault, namespaces.ErrName, namespaces.ErrToken, namespaces.ErrFull} {
		if errors.Is(err, e) {
			return rerr.Errorf("ERR %s", e.Error())
		}
	}
	return err
}

func (x namespaceCmd) Run(c *command.Ctx) error {
	reg := c.Server.Namespaces
	if reg == nil {
		return rerr.Errorf("ERR namespaces are not available here")
	}
	switch x.op {
	case "get":
		return x.get(c, reg)
	case "add", "set":
		if x.token != "" && x.token == requirePass(c) {
			return rerr.Errorf("ERR the token is the administrator's password (requirepass)")
		}
		var err error
		if x.op == "add" {
			_, err = reg.Add(x.name, x.token)
		} else {
			err = reg.Set(x.name, x.token)
		}
		if err != nil {
			return namespaceError(err)
		}
	case "del":
		gone, err := reg.Del(x.name)
		if err != nil {
			return namespaceError(err)
		}
		for db := range store.Databases {
			if err := c.Tx.Records().Flush(command.NamespaceDB(gone.ID, db)); err != nil {
				return err
			}
		}
		c.PurgeCaches()
		c.Server.Clients.KillClients(command.KillFilter{Namespace: &gone.ID}, c.Client.Conn)
	}
	c.W.OK()
	return nil
}

// get answers GET name (its token, nil when there is none) and GET *
// (every namespace and its token, then the default namespace's:
// requirepass).
func (x namespaceCmd) get(c *command.Ctx, reg command.Namespaces) error {
	if x.name != "*" {
		if x.name == namespaces.Default {
			c.W.BulkString(requirePass(c))
			return nil
		}
		if ns, ok := reg.Get(x.name); ok {
			c.W.BulkString(ns.Token)
		} else {
			c.W.Null()
		}
		return nil
	}
	all := reg.All()
	c.W.Array(2 * (len(all) + 1))
	for _, ns := range all {
		c.W.BulkString(ns.Name)
		c.W.BulkString(ns.Token)
	}
	c.W.BulkString(namespaces.Default)
	c.W.BulkString(requirePass(c))
	return nil
}

// requirePass returns the default user's password as configured
// (requirepass; "" when none).
func requirePass(c *command.Ctx) string {
	for _, kv := range c.Server.Config.ConfigGet([][]byte{[]byte("requirepass")}) {
		return kv[1]
	}
	return ""
}

func namespaceCommand() *command.Spec {
	return command.NotMonitored(&command.Spec{Name: "namespace", Arity: -2, Subcommands: []*command.Spec{
		{Name: "add", Arity: 4, Flags: command.AllShards | command.NoScript | command.Admin, Parse: namespaceParser("add")},
		{Name: "set", Arity: 4, Flags: command.AllShards | command.NoScript | command.Admin, Parse: namespaceParser("set")},
		{Name: "del", Arity: 3, Flags: command.Write | command.AllShards | command.NoScript | command.Admin, Parse: namespaceParser("del")},
		{Name: "get", Arity: 3, Flags: command.AllShards | command.NoScript | command.Admin, Parse: namespaceParser("get")},
		command.HelpSpec("NAMESPACE <subcommand> [<arg> ...]. Subcommands are:",
			"ADD <namespace> <token>", "    Defines a namespace, entered with AUTH <token>.",
			"SET <namespace> <token>", "    Gives a namespace a new token.",
			"DEL <namespace>", "    Deletes a namespace and its data.",
			"GET <namespace> | *", "    Returns a namespace's token, or every namespace and its token.",
			"HELP", "    Prints this help."),
	}})
}
