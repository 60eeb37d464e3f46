package server

import "github.com/rekv/rekv/actors/command"

// Commands returns the server commands' registration table.
func Commands() []*command.Spec {
	return append(clusterCommands(), []*command.Spec{
		{Name: "ping", Arity: -1, Flags: command.Conn | command.Fast | command.PubSubContext, Parse: parsePing},
		{Name: "echo", Arity: 2, Flags: command.Conn | command.Fast, Parse: parseEcho},
		{Name: "hello", Arity: -1, Flags: command.Conn | command.Fast | command.NoAuth | command.NoScript | command.AllowBusy, Parse: parseHello},
		{Name: "quit", Arity: -1, Flags: command.Conn | command.Fast | command.NoAuth | command.PubSubContext | command.NotQueued | command.NoScript | command.AllowBusy, Parse: parseQuit},
		{Name: "auth", Arity: -2, Flags: command.Conn | command.Fast | command.NoAuth | command.NoScript | command.AllowBusy, Parse: parseAuth},
		{Name: "select", Arity: 2, Flags: command.Conn | command.Fast, Parse: parseSelect},
		{Name: "time", Arity: 1, Flags: command.Conn | command.Fast, Parse: parseTime},
		{Name: "client", Arity: -2, Flags: command.Conn | command.NoScript, Subcommands: clientSubcommands()},
		{Name: "command", Arity: -1, Flags: command.Conn, Parse: parseCommand, Subcommands: []*command.Spec{
			{Name: "count", Arity: 2, Flags: command.Conn, Parse: parseCommand},
			{Name: "docs", Arity: -2, Flags: command.Conn, Parse: parseCommand},
			{Name: "getkeys", Arity: -4, Flags: command.Conn, Parse: parseCommand},
			{Name: "getkeysandflags", Arity: -4, Flags: command.Conn, Parse: parseCommand},
			{Name: "help", Arity: 2, Flags: command.Conn, Parse: parseCommand},
			{Name: "info", Arity: -2, Flags: command.Conn, Parse: parseCommand},
			{Name: "list", Arity: -2, Flags: command.Conn, Parse: parseCommand},
		}},
		{Name: "config", Arity: -2, Flags: command.Conn | command.NoScript, Subcommands: []*command.Spec{
			{Name: "get", Arity: -3, Flags: command.Conn, Parse: parseConfigGet},
			{Name: "set", Arity: -4, Flags: command.Conn, Parse: parseConfigSet},
			{Name: "resetstat", Arity: 2, Flags: command.Conn, Parse: parseConfigResetStat},
			{Name: "rewrite", Arity: 2, Flags: command.Conn, Parse: parseConfigRewrite},
			command.HelpSpec("CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"GET <pattern>", "    The parameters matching the glob-like pattern, with their values.",
				"SET <directive> <value>", "    Sets a parameter (several pairs: all or none).",
				"RESETSTAT", "    Zeroes the counters INFO reports.",
				"REWRITE", "    Writes the changed parameters back to the YAML configuration file.",
				"HELP", "    Prints this help."),
		}},
		{Name: "info", Arity: -1, Flags: command.ReadOnly | command.Keyspace, Parse: parseInfo},
		{Name: "monitor", Arity: 1, Flags: command.Conn | command.NoScript, Parse: parseMonitor},
		{Name: "memory", Arity: -2, Subcommands: []*command.Spec{
			{Name: "usage", Arity: -3, Flags: command.ReadOnly | command.NoTouch, Keys: command.KeySpec{First: 2, Last: 2, Step: 1}, Parse: parseMemoryUsage},
			{Name: "stats", Arity: 2, Flags: command.Conn, Parse: parseMemoryInfo("stats")},
			{Name: "doctor", Arity: 2, Flags: command.Conn, Parse: parseMemoryInfo("doctor")},
			{Name: "purge", Arity: 2, Flags: command.Conn, Parse: parseMemoryInfo("purge")},
			{Name: "malloc-stats", Arity: 2, Flags: command.Conn, Parse: parseMemoryInfo("malloc-stats")},
			{Name: "help", Arity: 2, Flags: command.Conn, Parse: parseMemoryInfo("help")},
		}},
		{Name: "latency", Arity: -2, Subcommands: []*command.Spec{
			{Name: "latest", Arity: 2, Flags: command.Conn, Parse: latencyParser("latest")},
			{Name: "history", Arity: 3, Flags: command.Conn, Parse: latencyParser("history")},
			{Name: "reset", Arity: -2, Flags: command.Conn, Parse: latencyParser("reset")},
			{Name: "histogram", Arity: -2, Flags: command.Conn, Parse: latencyParser("histogram")},
			{Name: "graph", Arity: 3, Flags: command.Conn, Parse: latencyParser("graph")},
			{Name: "doctor", Arity: 2, Flags: command.Conn, Parse: latencyParser("doctor")},
			{Name: "help", Arity: 2, Flags: command.Conn, Parse: latencyParser("help")},
		}},
		{Name: "acl", Arity: -2, Subcommands: aclSubcommands()},
		{Name: "lolwut", Arity: -1, Flags: command.Conn | command.Fast, Parse: parseLolwut},
		{Name: "debug", Arity: -2, Flags: command.Conn | command.NoScript, Parse: parseDebug},
		{Name: "shutdown", Arity: -1, Flags: command.Conn | command.NoScript | command.AllowBusy, Parse: parseShutdown},
		{Name: "role", Arity: 1, Flags: command.Conn | command.Fast | command.NoScript, Parse: parseRole},
		{Name: "save", Arity: 1, Flags: command.Conn | command.NoScript, Parse: parseSave},
		{Name: "bgsave", Arity: -1, Flags: command.Conn | command.NoScript, Parse: parseBgsave},
		{Name: "lastsave", Arity: 1, Flags: command.Conn | command.Fast, Parse: parseLastSave},
		{Name: "wait", Arity: 3, Flags: command.Conn | command.NoScript, Parse: parseWait},
		{Name: "waitaof", Arity: 4, Flags: command.Conn | command.NoScript, Parse: parseWaitAOF},
		{Name: "reset", Arity: 1, Flags: command.Conn | command.Fast | command.NoAuth | command.NoScript | command.NotQueued | command.PubSubContext | command.AllowBusy, Parse: parseReset},
		{Name: "slowlog", Arity: -2, Flags: command.Conn, Subcommands: []*command.Spec{
			{Name: "get", Arity: -2, Flags: command.Conn, Parse: parseSlowlogGet},
			{Name: "len", Arity: 2, Flags: command.Conn, Parse: parseSlowlogLen},
			{Name: "reset", Arity: 2, Flags: command.Conn, Parse: parseSlowlogReset},
			{Name: "help", Arity: 2, Flags: command.Conn, Parse: parseSlowlogHelp},
		}},
	}...)
}
