package scripting

import "github.com/rekv/rekv/actors/command"

// Commands returns the scripting commands' registration table, serving
// scripts from s.
func Commands(s *Scripts) []*command.Spec {
	keys := command.NumKeys(2, false)
	script := command.NoScript | command.Serial
	return []*command.Spec{
		{Name: "eval", Arity: -3, Flags: command.Write | command.MayReplicate | script, KeysFunc: keys, Parse: s.evalParser(false, false), FlagsFor: s.evalFlags},
		{Name: "evalsha", Arity: -3, Flags: command.Write | command.MayReplicate | script, KeysFunc: keys, Parse: s.evalParser(true, false), FlagsFor: s.evalSHAFlags},
		{Name: "eval_ro", Arity: -3, Flags: command.ReadOnly | script, KeysFunc: keys, Parse: s.evalParser(false, true), FlagsFor: s.evalFlags},
		{Name: "evalsha_ro", Arity: -3, Flags: command.ReadOnly | script, KeysFunc: keys, Parse: s.evalParser(true, true), FlagsFor: s.evalSHAFlags},
		{Name: "fcall", Arity: -3, Flags: command.Write | command.MayReplicate | script, KeysFunc: keys, Parse: s.fcallParser(false), FlagsFor: s.fcallFlags},
		{Name: "fcall_ro", Arity: -3, Flags: command.ReadOnly | script, KeysFunc: keys, Parse: s.fcallParser(true), FlagsFor: s.fcallFlags},
		// DEBUG RELOAD, a variant of the server family's DEBUG
		// (debugreload.go).
		{Name: "debug", VariantOf: "debug", Matches: isDebugReload, Arity: -2,
			Flags: command.ReadOnly | command.NoTouch | command.Keyspace | command.NoScript | command.NoMonitor | command.ScriptDebug, Parse: s.parseDebugReload},
		{Name: "function", Arity: -2, Flags: command.NoScript, Subcommands: []*command.Spec{
			{Name: "load", Arity: -3, Flags: command.Write | command.NoScript, Parse: s.parseFnLoad},
			{Name: "delete", Arity: 3, Flags: command.Write | command.NoScript, Parse: s.parseFnDelete},
			{Name: "flush", Arity: -2, Flags: command.Write | command.NoScript, Parse: s.parseFnFlush},
			{Name: "restore", Arity: -3, Flags: command.Write | command.NoScript, Parse: s.parseFnRestore},
			{Name: "list", Arity: -2, Flags: command.ReadOnly | command.NoScript, Parse: s.parseFnList},
			{Name: "dump", Arity: 2, Flags: command.ReadOnly | command.NoScript, Parse: s.parseFnDump},
			{Name: "stats", Arity: 2, Flags: command.ReadOnly | command.NoScript | command.AllowBusy, Parse: s.parseFnStats},
			{Name: "kill", Arity: 2, Flags: command.Conn | command.NoScript | command.AllowBusy, Parse: s.parseKill},
			command.HelpSpec("FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"LOAD [REPLACE] <FUNCTION CODE>", "    Creates a library from its code (REPLACE: over one of the same name).",
				"DELETE <LIBRARY NAME>", "    Deletes a library and its functions.",
				"KILL", "    Stops the function running now, if it has not written.",
				"FLUSH [ASYNC|SYNC]", "    Deletes every library.",
				"LIST [LIBRARYNAME PATTERN] [WITHCODE]", "    Describes the libraries (matching the pattern), with their code if asked.",
				"STATS", "    Describes the function running now and the engines.",
				"DUMP", "    Serializes every library.",
				"RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]", "    Loads libraries from DUMP's payload.",
				"HELP", "    Prints this help."),
		}},
		{Name: "script", Arity: -2, Flags: command.NoScript, Subcommands: []*command.Spec{
			{Name: "load", Arity: 3, Flags: command.Conn | command.NoScript, Parse: s.parseLoad},
			{Name: "exists", Arity: -3, Flags: command.Conn | command.NoScript, Parse: s.parseExists},
			{Name: "flush", Arity: -2, Flags: command.Conn | command.NoScript, Parse: s.parseFlush},
			{Name: "kill", Arity: 2, Flags: command.Conn | command.NoScript | command.AllowBusy, Parse: s.parseKill},
			{Name: "debug", Arity: 3, Flags: command.Conn | command.NoScript, Parse: parseScriptDebug},
			command.HelpSpec("SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
				"DEBUG (YES|SYNC|NO)", "    Only NO: rekv has no Lua debugger.",
				"EXISTS <sha1> [<sha1> ...]", "    Whether each script is in the script cache (1 or 0).",
				"FLUSH [ASYNC|SYNC]", "    Empties the script cache.",
				"KILL", "    Stops the script running now, if it has not written.",
				"LOAD <script>", "    Puts a script in the script cache and returns its SHA1 digest.",
				"HELP", "    Prints this help."),
		}},
	}
}
