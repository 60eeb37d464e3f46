package scripting

import "github.com/rekv/rekv/actors/command"

// scriptFlags are the flags a script declares in its shebang (#!lua
// flags=...) or a function in register_function, as Redis 7.0 has them.
type scriptFlags uint8

const (
	flagNoWrites scriptFlags = 1 << iota
	flagAllowOOM
	flagAllowStale
	flagNoCluster
	flagAllowCrossSlot
)

// flagNames are the flags' names.
var flagNames = map[string]scriptFlags{"no-writes": flagNoWrites, "allow-oom": flagAllowOOM,
	"allow-stale": flagAllowStale, "no-cluster": flagNoCluster, "allow-cross-slot-keys": flagAllowCrossSlot}

// commandFlags are what the admission guards judge a script with these
// flags by, as Redis's scriptFlagsToCmdFlags: it writes unless no-writes,
// may grow the data set unless no-writes or allow-oom, and a stale
// replica serves it only with allow-stale.
func (f scriptFlags) commandFlags() command.Flags {
	var out command.Flags
	if f&flagNoWrites == 0 {
		out |= command.Write
	}
	if f&(flagNoWrites|flagAllowOOM) == 0 {
		out |= command.DenyOOM
	}
	if f&flagAllowStale != 0 {
		out |= command.Stale
	}
	return out
}

// evalFlags is FlagsFor of EVAL and EVAL_RO: the flags of the script's
// shebang; a script without one (or one that does not parse, which the
// run reports) is judged by its calls.
func (s *Scripts) evalFlags(_ uint32, args [][]byte) (command.Flags, bool) {
	body := args[1]
	if len(body) < 2 || body[0] != '#' || body[1] != '!' {
		return 0, false
	}
	line := body
	for i, c := range body {
		if c == '\n' {
			line = body[:i]
			break
		}
	}
	var sc script
	if sc.parseShebang(string(line)) != nil {
		return 0, false
	}
	return sc.flags.commandFlags(), true
}

// evalSHAFlags is FlagsFor of EVALSHA and EVALSHA_RO: the cached
// script's flags.
func (s *Scripts) evalSHAFlags(_ uint32, args [][]byte) (command.Flags, bool) {
	sc := s.get(args[1])
	if sc == nil || !sc.declared {
		return 0, false
	}
	return sc.flags.commandFlags(), true
}

// fcallFlags is FlagsFor of FCALL and FCALL_RO: the function's flags, as
// the node last read namespace ns's libraries (an unknown function is
// judged by FCALL's own flags; its run answers "Function not found").
func (s *Scripts) fcallFlags(ns uint32, args [][]byte) (command.Flags, bool) {
	for _, lib := range s.fns.cached(ns) {
		if fn := lib.find(string(args[1])); fn != nil {
			return fn.sf.commandFlags(), true
		}
	}
	return 0, false
}
