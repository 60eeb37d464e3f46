package stream

import "github.com/rekv/rekv/actors/command"

// Commands returns the stream commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	second := command.KeySpec{First: 2, Last: 2, Step: 1}
	return []*command.Spec{
		{Name: "xadd", Arity: -5, Flags: command.WriteFast | command.OwnEvents, Keys: first, Parse: parseXAdd},
		{Name: "xlen", Arity: 2, Flags: command.ReadFast, Keys: first, Parse: parseXLen},
		{Name: "xrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: rangeParser(false)},
		{Name: "xrevrange", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: rangeParser(true)},
		{Name: "xdel", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "xdel", Parse: parseXDel},
		{Name: "xread", Arity: -4, Flags: command.ReadOnly | command.Blocking, KeysFunc: streamsKeys, Parse: parseXRead},
		{Name: "xgroup", Arity: -2, Subcommands: []*command.Spec{
			{Name: "create", Arity: -5, Flags: command.Write, Keys: second, Parse: groupSetParser(true)},
			{Name: "setid", Arity: -5, Flags: command.Write, Keys: second, Parse: groupSetParser(false)},
			{Name: "destroy", Arity: 4, Flags: command.Write, Keys: second, Parse: parseGroupDestroy},
			{Name: "createconsumer", Arity: 5, Flags: command.Write, Keys: second, Parse: consumerParser(false)},
			{Name: "delconsumer", Arity: 5, Flags: command.Write, Keys: second, Parse: consumerParser(true)},
			command.HelpSpec("XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"CREATE <key> <groupname> <id|$> [MKSTREAM] [ENTRIESREAD entries_read]",
				"    Creates a consumer group at the given entry id ($: the last one); MKSTREAM creates the stream if needed.",
				"CREATECONSUMER <key> <groupname> <consumer>", "    Adds a consumer to the group.",
				"DELCONSUMER <key> <groupname> <consumer>", "    Removes a consumer and its pending entries.",
				"DESTROY <key> <groupname>", "    Removes the consumer group.",
				"SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]", "    Moves the group's last delivered id.",
				"HELP", "    Prints this help."),
		}},
		{Name: "xreadgroup", Arity: -7, Flags: command.Write | command.Blocking, KeysFunc: streamsKeys, Parse: parseXReadGroup},
		{Name: "xack", Arity: -4, Flags: command.WriteFast, Keys: first, Parse: parseXAck},
		{Name: "xpending", Arity: -3, Flags: command.ReadOnly, Keys: first, Parse: parseXPending},
		{Name: "xclaim", Arity: -6, Flags: command.Write, Keys: first, Parse: parseXClaim},
		{Name: "xautoclaim", Arity: -6, Flags: command.Write, Keys: first, Parse: parseXAutoClaim},
		{Name: "xsetid", Arity: -3, Flags: command.Write, Keys: first, Event: "xsetid", Parse: parseXSetID},
		{Name: "xinfo", Arity: -2, Subcommands: []*command.Spec{
			{Name: "stream", Arity: -3, Flags: command.ReadOnly, Keys: second, Parse: parseXInfoStream},
			{Name: "groups", Arity: 3, Flags: command.ReadOnly, Keys: second, Parse: parseXInfoGroups},
			{Name: "consumers", Arity: 4, Flags: command.ReadOnly, Keys: second, Parse: parseXInfoConsumers},
			command.HelpSpec("XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"CONSUMERS <key> <groupname>", "    Describes the consumers of the group.",
				"GROUPS <key>", "    Describes the consumer groups of the stream.",
				"STREAM <key> [FULL [COUNT <count>]]", "    Describes the stream (FULL: with its entries, groups and consumers).",
				"HELP", "    Prints this help."),
		}},
		{Name: "xtrim", Arity: -4, Flags: command.Write, Keys: first, Event: "xtrim", Parse: parseXTrim},
	}
}
