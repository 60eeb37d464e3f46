package keys

import "github.com/rekv/rekv/actors/command"

// Commands returns the keyspace commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	two := command.KeySpec{First: 1, Last: 2, Step: 1}
	all := command.KeySpec{First: 1, Last: -1, Step: 1}
	second := command.KeySpec{First: 2, Last: 2, Step: 1}
	return []*command.Spec{
		{Name: "del", Arity: -2, Flags: command.Write, Keys: all, Event: "del", Parse: parseDel},
		{Name: "unlink", Arity: -2, Flags: command.WriteFast, Keys: all, Event: "del", Parse: parseDel},
		{Name: "exists", Arity: -2, Flags: command.ReadFast | command.NoTouch, Keys: all, Parse: parseExists},
		{Name: "touch", Arity: -2, Flags: command.ReadFast | command.Touches, Keys: all, Parse: parseTouch},
		{Name: "type", Arity: 2, Flags: command.ReadFast | command.NoTouch, Keys: first, Parse: parseType},
		{Name: "expire", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "expire", Parse: expireParser("expire", false, true)},
		{Name: "pexpire", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "expire", Parse: expireParser("pexpire", false, false)},
		{Name: "expireat", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "expire", Parse: expireParser("expireat", true, true)},
		{Name: "pexpireat", Arity: -3, Flags: command.WriteFast, Keys: first, Event: "expire", Parse: expireParser("pexpireat", true, false)},
		{Name: "ttl", Arity: 2, Flags: command.ReadFast | command.NoTouch, Keys: first, Parse: ttlParser(false, false)},
		{Name: "pttl", Arity: 2, Flags: command.ReadFast | command.NoTouch, Keys: first, Parse: ttlParser(true, false)},
		{Name: "expiretime", Arity: 2, Flags: command.ReadFast | command.NoTouch, Keys: first, Parse: ttlParser(false, true)},
		{Name: "pexpiretime", Arity: 2, Flags: command.ReadFast | command.NoTouch, Keys: first, Parse: ttlParser(true, true)},
		{Name: "persist", Arity: 2, Flags: command.WriteFast, Keys: first, Event: "persist", Parse: parsePersist},
		{Name: "rename", Arity: 3, Flags: command.Write | command.NewFirst, Keys: two, KeyEvent: renameEvent, Parse: parseRename},
		{Name: "renamenx", Arity: 3, Flags: command.WriteFast | command.NewFirst, Keys: two, KeyEvent: renameEvent, Parse: parseRenameNX},
		{Name: "copy", Arity: -3, Flags: command.Write, Keys: two, Event: "copy_to", Parse: parseCopy},
		{Name: "move", Arity: 3, Flags: command.WriteFast | command.NewFirst, Keys: first, KeyEvent: moveEvent, Parse: parseMove},
		// DEBUG OBJECT key, a variant of the server family's DEBUG.
		{Name: "debug", VariantOf: "debug", Matches: isDebugObject, Arity: 3, Keys: second,
			Flags: command.ReadOnly | command.NoTouch | command.NoScript | command.NoMonitor | command.ScriptDebug, Parse: parseDebugObject},
		// DEBUG DIGEST-VALUE key [key ...] and DEBUG DIGEST, also variants.
		{Name: "debug", VariantOf: "debug", Matches: isDebugDigestValue, Arity: -2, Keys: command.KeySpec{First: 2, Last: -1, Step: 1},
			Flags: command.ReadOnly | command.NoTouch | command.NoScript | command.NoMonitor | command.ScriptDebug, Parse: parseDebugDigestValue},
		{Name: "debug", VariantOf: "debug", Matches: isDebugDigest, Arity: 2,
			Flags: command.ReadOnly | command.NoTouch | command.Keyspace | command.NoScript | command.NoMonitor | command.ScriptDebug, Parse: parseDebugDigest},
		{Name: "object", Arity: -2, Subcommands: []*command.Spec{
			{Name: "encoding", Arity: 3, Flags: command.ReadOnly | command.NoTouch, Keys: second, Parse: objectParser("encoding")},
			{Name: "refcount", Arity: 3, Flags: command.ReadOnly | command.NoTouch, Keys: second, Parse: objectParser("refcount")},
			{Name: "freq", Arity: 3, Flags: command.ReadOnly | command.NoTouch, Keys: second, Parse: objectParser("freq")},
			{Name: "idletime", Arity: 3, Flags: command.ReadOnly | command.NoTouch, Keys: second, Parse: objectParser("idletime")},
			{Name: "help", Arity: 2, Flags: command.ReadOnly, Parse: parseObjectHelp},
		}},
		{Name: "sort", Arity: -2, Flags: command.Write | command.Serial, KeysFunc: sortKeys, Class: command.NotifyList,
			KeyEvent: sortStoreEvent, Parse: parseSort},
		{Name: "sort_ro", Arity: -2, Flags: command.ReadOnly | command.Serial, Keys: first, Parse: parseSortRO},
		{Name: "dump", Arity: 2, Flags: command.ReadOnly, Keys: first, Parse: parseDump},
		{Name: "restore", Arity: -4, Flags: command.Write, Keys: first, KeyEvent: restoreEvent, Parse: parseRestore},
		{Name: "migrate", Arity: -6, Flags: command.Write, KeysFunc: migrateKeys, Event: "del", Parse: parseMigrate},
		{Name: "keys", Arity: 2, Flags: command.ReadOnly | command.Keyspace, Parse: parseKeys},
		{Name: "scan", Arity: -2, Flags: command.ReadOnly | command.Keyspace, Parse: parseScan},
		{Name: "randomkey", Arity: 1, Flags: command.ReadOnly | command.Keyspace, Parse: parseRandomKey},
		{Name: "dbsize", Arity: 1, Flags: command.ReadOnly | command.Keyspace | command.Fast, Parse: parseDBSize},
		{Name: "flushdb", Arity: -1, Flags: command.Write | command.AllShards, Parse: parseFlushDB},
		{Name: "flushall", Arity: -1, Flags: command.Write | command.AllShards, Parse: parseFlushAll},
		{Name: "swapdb", Arity: 3, Flags: command.WriteFast | command.AllShards, Parse: parseSwapDB},
	}
}
