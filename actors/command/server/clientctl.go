package server

import (
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// CLIENT KILL addr | CLIENT KILL [ID id] [TYPE type] [ADDR addr]
// [LADDR addr] [USER user] [SKIPME yes|no]
type clientKill struct {
	f   command.KillFilter
	old bool // the one-address form: OK or an error, not a count
}

func parseClientKill(args [][]byte) (command.Runner, error) {
	if len(args) == 3 {
		return clientKill{f: command.KillFilter{Addr: string(args[2])}, old: true}, nil
	}
	k := clientKill{f: command.KillFilter{SkipMe: true}}
	if len(args)%2 != 0 {
		return nil, rerr.ErrSyntax
	}
	for i := 2; i < len(args); i += 2 {
		v := string(args[i+1])
		switch strings.ToLower(string(args[i])) {
		case "id":
			n, err := command.Int(args[i+1])
			if err != nil || n <= 0 {
				return nil, rerr.Errorf("ERR client-id should be greater than 0")
			}
			k.f.ID = n
		case "type":
			t := strings.ToLower(v)
			switch t {
			case "normal", "pubsub", "master", "replica":
			case "slave":
				t = "replica"
			default:
				return nil, rerr.Errorf("ERR Unknown client type '%s'", v)
			}
			k.f.Type = t
		case "addr":
			k.f.Addr = v
		case "laddr":
			k.f.LAddr = v
		case "user":
			k.f.User = v // checked against the ACL users when run
		case "skipme":
			switch strings.ToLower(v) {
			case "yes":
				k.f.SkipMe = true
			case "no":
				k.f.SkipMe = false
			default:
				return nil, rerr.ErrSyntax
			}
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return k, nil
}

func (k clientKill) Run(c *command.Ctx) error {
	if k.f.User != "" && c.Server.Config.ACL().User(k.f.User) == nil {
		return rerr.Errorf("ERR No such user '%s'", k.f.User)
	}
	f := k.f
	f.Namespace = c.OwnNamespace()
	n := c.Server.Clients.KillClients(f, c.Client.Conn)
	if !k.old {
		c.W.Int(int64(n))
		return nil
	}
	if n == 0 {
		return rerr.Errorf("ERR No such client")
	}
	c.W.OK()
	return nil
}

// CLIENT UNBLOCK client-id [TIMEOUT | ERROR]
type clientUnblock struct {
	id      int64
	asError bool
}

func parseClientUnblock(args [][]byte) (command.Runner, error) {
	id, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.ErrNotInteger
	}
	u := clientUnblock{id: id}
	if len(args) == 4 {
		switch strings.ToLower(string(args[3])) {
		case "timeout":
		case "error":
			u.asError = true
		default:
			return nil, rerr.Errorf("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR")
		}
	}
	return u, nil
}

func (u clientUnblock) Run(c *command.Ctx) error {
	if c.Server.Clients.UnblockClient(u.id, u.asError) {
		c.W.Int(1)
	} else {
		c.W.Int(0)
	}
	return nil
}

// CLIENT PAUSE timeout [WRITE | ALL]
type clientPause struct {
	d          time.Duration
	writesOnly bool
}

func parseClientPause(args [][]byte) (command.Runner, error) {
	ms, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.Errorf("ERR timeout is not an integer or out of range")
	}
	if ms < 0 {
		return nil, rerr.Errorf("ERR timeout is negative")
	}
	p := clientPause{d: time.Duration(min(ms, int64(1)<<40)) * time.Millisecond}
	if len(args) == 4 {
		switch strings.ToLower(string(args[3])) {
		case "write":
			p.writesOnly = true
		case "all":
		default:
			return nil, rerr.Errorf("ERR CLIENT PAUSE mode must be WRITE or ALL")
		}
	}
	return p, nil
}

func (p clientPause) Run(c *command.Ctx) error {
	c.Server.Clients.Pause(time.Now().Add(p.d), p.writesOnly)
	c.W.OK()
	return nil
}

// CLIENT UNPAUSE
type clientUnpause struct{}

func (clientUnpause) Run(c *command.Ctx) error {
	c.Server.Clients.Unpause()
	c.W.OK()
	return nil
}

// CLIENT REPLY ON | OFF | SKIP
type clientReply struct{ mode string }

func parseClientReply(args [][]byte) (command.Runner, error) {
	m := strings.ToLower(string(args[2]))
	switch m {
	case "on", "off", "skip":
		return clientReply{m}, nil
	}
	return nil, rerr.ErrSyntax
}

func (r clientReply) Run(c *command.Ctx) error {
	c.Client.Session.SetReplyMode(r.mode)
	c.W.OK() // dropped for OFF and SKIP
	return nil
}

// CLIENT NO-EVICT ON | OFF: whether maxmemory-clients may disconnect
// the client.
type clientNoEvict struct{ on bool }

func parseClientNoEvict(args [][]byte) (command.Runner, error) {
	switch strings.ToLower(string(args[2])) {
	case "on":
		return clientNoEvict{true}, nil
	case "off":
		return clientNoEvict{false}, nil
	}
	return nil, rerr.ErrSyntax
}

func (n clientNoEvict) Run(c *command.Ctx) error {
	c.Client.Session.SetNoEvict(n.on)
	c.W.OK()
	return nil
}

// CLIENT HELP
type clientHelp struct{}

func (clientHelp) Run(c *command.Ctx) error {
	lines := []string{
		"CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"CACHING (YES|NO)", "    Whether the next command's keys are tracked (OPTIN / OPTOUT tracking).",
		"GETNAME", "    This connection's name.",
		"GETREDIR", "    The client id invalidations go to: 0 for this one, -1 when tracking is off.",
		"ID", "    This connection's id.",
		"INFO", "    Describes this connection.",
		"KILL <ip:port> | [ID <id>] [TYPE normal|pubsub|master|replica] [ADDR <ip:port>] [LADDR <ip:port>] [USER <name>] [SKIPME yes|no]",
		"    Closes the matching connections.",
		"LIST [TYPE normal|pubsub|master|replica] [ID <id> ...]", "    Describes the connections.",
		"NO-EVICT (ON|OFF)", "    Protect current client connection from eviction.",
		"NO-TOUCH (ON|OFF)", "    Whether this connection's reads leave the keys' access time alone (TOUCH still sets it).",
		"PAUSE <timeout> [WRITE|ALL]", "    Holds the commands (or the writes) of every client for <timeout> ms.",
		"REPLY (ON|OFF|SKIP)", "    Turns this connection's replies on or off, or skips the next one.",
		"SETINFO <LIB-NAME|LIB-VER> <value>", "    Records the client library's name or version.",
		"SETNAME <name>", "    Names this connection.",
		"TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]] [OPTIN] [OPTOUT] [NOLOOP]",
		"    Client-side caching: invalidation messages for the keys this connection read (or, with BCAST, every key under its prefixes).",
		"TRACKINGINFO", "    This connection's tracking flags, redirect and prefixes.",
		"UNBLOCK <id> [TIMEOUT|ERROR]", "    Ends a client's blocking command.",
		"UNPAUSE", "    Ends CLIENT PAUSE.",
		"HELP", "    Prints this help.",
	}
	c.W.SimpleArray(lines)
	return nil
}
