package server

import "github.com/rekv/rekv/actors/command"

const (
	cf = command.Conn | command.Fast
	c  = command.Conn
)

// Commands returns the server commands' registration table.
func Commands() []*command.Spec {
	return []*command.Spec{
		{Name: "ping", Arity: -1, Flags: cf, Parse: parsePing},
		{Name: "echo", Arity: 2, Flags: cf, Parse: parseEcho},
		{Name: "hello", Arity: -1, Flags: cf, Parse: parseHello},
		{Name: "quit", Arity: -1, Flags: cf, Parse: parseQuit},
		{Name: "select", Arity: 2, Flags: cf, Parse: parseSelect},
		{Name: "time", Arity: 1, Flags: cf, Parse: parseTime},
		{Name: "client", Arity: -2, Flags: c, Subcommands: clientSubcommands()},
		{Name: "command", Arity: -1, Flags: c, Parse: parseCommand},
		{Name: "config", Arity: -2, Flags: c, Subcommands: []*command.Spec{
			{Name: "get", Arity: -3, Flags: c, Parse: parseConfigGet},
		}},
		{Name: "info", Arity: -1, Flags: command.ReadOnly | command.Keyspace, Parse: parseInfo},
	}
}
