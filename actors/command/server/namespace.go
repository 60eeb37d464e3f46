package server

import (
	"errors"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/namespaces"
)

// NAMESPACE ADD name token | SET name token | DEL name | GET name | GET *,
// as kvrocks has them, and QUOTA name [field value ...]: the
// administrator's (command.Admin). A namespace
// is entered with AUTH <token>; its definition lives in the store, so
// every node of the store serves it. DEL makes the namespace's data
// unreachable at once (its 16 databases are flushed: O(1), the GC
// reclaims the data) and closes this node's connections in it; other
// nodes close theirs when they next read the definitions.
type namespaceCmd struct {
	op          string // "add", "set", "del", "get", "quota"
	name, token string
	quota       []quotaField // QUOTA's changes (none: show them)
}

// quotaField is one change of NAMESPACE QUOTA.
type quotaField struct {
	field *int64 // into the namespace's Quota
	name  string
	value int64
}

// quotaFields are NAMESPACE QUOTA's fields, in the order it shows them.
func quotaFields(q *namespaces.Quota) []quotaField {
	return []quotaField{{&q.Keys, "max-keys", 0}, {&q.Bytes, "max-bytes", 0},
		{&q.Ops, "max-ops-per-sec", 0}, {&q.Clients, "max-clients", 0}}
}

func namespaceParser(op string) func(args [][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		x := namespaceCmd{op: op, name: string(args[2])}
		if op == "quota" {
			if len(args)%2 != 1 {
				return nil, rerr.ErrSyntax
			}
			for i := 3; i < len(args); i += 2 {
				n, err := command.Int(args[i+1])
				if err != nil || n < 0 {
					return nil, rerr.Errorf("ERR a quota must be an integer from 0 (none) up")
				}
				known := false
				for _, f := range quotaFields(&namespaces.Quota{}) {
					if strings.EqualFold(f.name, string(args[i])) {
						x.quota, known = append(x.quota, quotaField{name: f.name, value: n}), true
					}
				}
				if !known {
					return nil, rerr.Errorf("ERR unknown quota '%s' (max-keys, max-bytes, max-ops-per-sec, max-clients)", args[i])
				}
			}
			return x, nil
		}
		if len(args) > 3 {
			x.token = string(args[3])
		}
		return x, nil
	}
}

// namespaceError words the registry's refusals as Redis errors.
func namespaceError(err error) error {
	for _, e := range []error{namespaces.ErrExists, namespaces.ErrTokenExists, namespaces.ErrNotFound,
		namespaces.ErrDefault, namespaces.ErrName, namespaces.ErrToken, namespaces.ErrFull, namespaces.ErrQuota} {
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
	if x.op != "get" && !(x.op == "quota" && len(x.quota) == 0) && c.Server.Status != nil && c.Server.Status.Replication().Replica {
		return rerr.ErrReadOnlyReplica // a replica takes its master's definitions
	}
	switch x.op {
	case "get":
		return x.get(c, reg)
	case "quota":
		return x.setQuota(c, reg)
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
		// Replicas flush the namespace too: FLUSHALL in its first
		// database (the stream wraps a named namespace's writes, which
		// a Redis replica then leaves alone).
		c.Tx.Use(command.NamespaceDB(gone.ID, 0))
		c.Effect([]byte("FLUSHALL"))
		c.Tx.Use(c.DB)
		c.PurgeCaches()
		c.Server.Clients.KillClients(command.KillFilter{Namespace: &gone.ID}, c.Client.Conn)
	}
	replicateDefinitions(c, reg)
	c.W.OK()
	return nil
}

// replicateDefinitions streams every namespace definition to the
// replicas, after a change: a rekv replica takes them (a Redis replica
// hears a PUBLISH no one subscribes to).
func replicateDefinitions(c *command.Ctx, reg command.Namespaces) {
	if c.Server.Node != nil {
		c.Server.Node.Replicate([]byte("PUBLISH"), []byte(namespaces.ReplChannel), namespaces.Encode(reg.All()))
	}
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

// setQuota answers QUOTA: the namespace's quotas after the changes
// given, if any (0: none).
func (x namespaceCmd) setQuota(c *command.Ctx, reg command.Namespaces) error {
	ns, ok := reg.Get(x.name)
	if !ok {
		if x.name == namespaces.Default {
			return namespaceError(namespaces.ErrDefault)
		}
		return namespaceError(namespaces.ErrNotFound)
	}
	q := ns.Quota
	if len(x.quota) > 0 {
		for _, ch := range x.quota {
			for _, f := range quotaFields(&q) {
				if f.name == ch.name {
					*f.field = ch.value
				}
			}
		}
		if err := reg.SetQuota(x.name, q); err != nil {
			return namespaceError(err)
		}
		replicateDefinitions(c, reg)
	}
	fields := quotaFields(&q)
	c.W.Map(len(fields))
	for _, f := range fields {
		c.W.BulkString(f.name)
		c.W.Int(*f.field)
	}
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
		{Name: "quota", Arity: -3, Flags: command.AllShards | command.NoScript | command.Admin, Parse: namespaceParser("quota")},
		command.HelpSpec("NAMESPACE <subcommand> [<arg> ...]. Subcommands are:",
			"ADD <namespace> <token>", "    Defines a namespace, entered with AUTH <token>.",
			"SET <namespace> <token>", "    Gives a namespace a new token.",
			"DEL <namespace>", "    Deletes a namespace and its data.",
			"GET <namespace> | *", "    Returns a namespace's token, or every namespace and its token.",
			"QUOTA <namespace> [<quota> <value> ...]", "    Sets (0: none) and returns a namespace's quotas: max-keys, max-bytes,",
			"    max-ops-per-sec and max-clients (the last two per node).",
			"HELP", "    Prints this help."),
	}})
}
