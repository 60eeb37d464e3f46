package server

import (
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

func clientSubcommands() []*command.Spec {
	return []*command.Spec{
		{Name: "id", Arity: 2, Flags: command.Conn | command.Fast, Parse: func([][]byte) (command.Runner, error) { return clientID{}, nil }},
		{Name: "setname", Arity: 3, Flags: command.Conn | command.Fast, Parse: parseClientSetName},
		{Name: "getname", Arity: 2, Flags: command.Conn | command.Fast, Parse: func([][]byte) (command.Runner, error) { return clientGetName{}, nil }},
		{Name: "setinfo", Arity: 4, Flags: command.Conn | command.Fast | command.NoScript, Parse: parseClientSetInfo},
		{Name: "info", Arity: 2, Flags: command.Conn, Parse: func([][]byte) (command.Runner, error) { return clientInfo{}, nil }},
		{Name: "list", Arity: -2, Flags: command.Conn | command.NoMonitor, Parse: parseClientList},
		{Name: "kill", Arity: -3, Flags: command.Conn | command.NoMonitor, Parse: parseClientKill},
		{Name: "unblock", Arity: -3, Flags: command.Conn | command.NoMonitor | command.Fast, Parse: parseClientUnblock},
		{Name: "pause", Arity: -3, Flags: command.Conn | command.NoMonitor, Parse: parseClientPause},
		{Name: "unpause", Arity: 2, Flags: command.Conn | command.NoMonitor, Parse: func([][]byte) (command.Runner, error) { return clientUnpause{}, nil }},
		{Name: "reply", Arity: 3, Flags: command.Conn | command.SetsReplyMode, Parse: parseClientReply},
		{Name: "no-evict", Arity: 3, Flags: command.Conn | command.NoMonitor, Parse: parseClientNoEvict},
		{Name: "no-touch", Arity: 3, Flags: command.Conn | command.Fast | command.NoScript, Parse: parseClientNoTouch},
		{Name: "getredir", Arity: 2, Flags: command.Conn, Parse: func([][]byte) (command.Runner, error) { return clientGetRedir{}, nil }},
		{Name: "tracking", Arity: -3, Flags: command.Conn, Parse: parseClientTracking},
		{Name: "caching", Arity: 3, Flags: command.Conn, Parse: parseClientCaching},
		{Name: "trackinginfo", Arity: 2, Flags: command.Conn, Parse: func([][]byte) (command.Runner, error) { return clientTrackingInfo{}, nil }},
		{Name: "help", Arity: 2, Flags: command.Conn, Parse: func([][]byte) (command.Runner, error) { return clientHelp{}, nil }},
	}
}

// CLIENT ID
type clientID struct{}

func (clientID) Run(c *command.Ctx) error {
	c.W.Int(c.Client.Conn.ID())
	return nil
}

// validName applies Redis's rule for client and library names.
func validName(name []byte) error {
	for _, ch := range name {
		if ch < '!' || ch > '~' {
			return rerr.Errorf("ERR Client names cannot contain spaces, newlines or special characters.")
		}
	}
	return nil
}

// CLIENT SETNAME connection-name
type clientSetName struct{ name []byte }

func parseClientSetName(args [][]byte) (command.Runner, error) {
	if err := validName(args[2]); err != nil {
		return nil, err
	}
	return clientSetName{args[2]}, nil
}

func (s clientSetName) Run(c *command.Ctx) error {
	c.Client.Conn.SetName(string(s.name))
	c.W.OK()
	return nil
}

// CLIENT GETNAME
type clientGetName struct{}

func (clientGetName) Run(c *command.Ctx) error {
	if n := c.Client.Conn.Name(); n != "" {
		c.W.BulkString(n)
	} else {
		c.W.Null()
	}
	return nil
}

// CLIENT SETINFO <LIB-NAME libname | LIB-VER libver>
type clientSetInfo struct {
	attr, val string
}

func parseClientSetInfo(args [][]byte) (command.Runner, error) {
	attr := strings.ToLower(string(args[2]))
	if attr != "lib-name" && attr != "lib-ver" {
		return nil, rerr.Errorf("ERR Unrecognized option '%s'", args[2])
	}
	for _, ch := range args[3] {
		if ch < '!' || ch > '~' {
			return nil, rerr.Errorf("ERR %s cannot contain spaces, newlines or special characters.", attr)
		}
	}
	return clientSetInfo{attr: attr, val: string(args[3])}, nil
}

func (s clientSetInfo) Run(c *command.Ctx) error {
	if s.attr == "lib-name" {
		c.Client.Conn.SetLibName(s.val)
	} else {
		c.Client.Conn.SetLibVer(s.val)
	}
	c.W.OK()
	return nil
}

// CLIENT INFO
type clientInfo struct{}

func (clientInfo) Run(c *command.Ctx) error {
	c.W.Verbatim(c.Client.Conn.Info() + "\n")
	return nil
}

// CLIENT LIST [TYPE <NORMAL | MASTER | REPLICA | PUBSUB>] [ID client-id ...]
type clientList struct {
	typ string          // "": every type
	ids map[string]bool // nil: every client
}

func parseClientList(args [][]byte) (command.Runner, error) {
	var l clientList
	for i := 2; i < len(args); i++ {
		switch {
		case command.Is(args[i], "type") && i+1 < len(args):
			t := strings.ToLower(string(args[i+1]))
			switch t {
			case "normal", "master", "replica", "pubsub":
				l.typ = t
			case "slave":
				l.typ = "replica"
			default:
				return nil, rerr.Errorf("ERR Unknown client type '%s'", args[i+1])
			}
			i++
		case command.Is(args[i], "id") && i+1 < len(args):
			l.ids = map[string]bool{}
			for i++; i < len(args); i++ {
				if _, err := strconv.ParseInt(string(args[i]), 10, 64); err != nil {
					return nil, rerr.Errorf("ERR Invalid client ID")
				}
				l.ids["id="+string(args[i])] = true
			}
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return l, nil
}

func (l clientList) Run(c *command.Ctx) error {
	var b strings.Builder
	for _, line := range c.Server.Clients.ClientList(c.OwnNamespace(), l.typ) {
		id, _, _ := strings.Cut(line, " ")
		if l.ids == nil || l.ids[id] {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	c.W.Verbatim(b.String())
	return nil
}
