package scripting

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/actors/command"
)

// Errors of the commands a script calls, in INFO errorstats, as Redis
// 7.0 counts them: a call refused before it ran (scriptCall: unknown
// command, arity, not allowed, ACL, a write refused, OOM, a key of
// another node) and a command that failed are counted as they happen,
// whether the script catches them (redis.pcall) or not. Their error
// table says so (ignore_error_stats_update = true, as in Redis), and a
// script that replies with one of them — raised by redis.call, or
// returned — is not counted a second time: its reply is the same error.

// refused returns the error table of a call refused before it ran
// (Redis's scriptCall): counted in the command's rejected_calls and in
// errorstats. spec is nil for an unknown command.
func (r *run) refused(L *lua.LState, spec *command.Spec, msg string) *lua.LTable {
	return r.counted(L, command.CmdStat{Spec: spec, Rejected: spec != nil}, msg)
}

// failed returns the error table of a call whose command failed with
// msg: its last recorded run (command.CmdStat, from the engine) is
// marked failed, with the error; spec's own when none was recorded (it
// did not parse).
func (r *run) failed(L *lua.LState, spec *command.Spec, msg string, ran bool) *lua.LTable {
	if ran && r.c.Stats != nil && len(*r.c.Stats) > 0 {
		st := &(*r.c.Stats)[len(*r.c.Stats)-1]
		st.Failed = true
		st.Error = replyLine(msg)
		t := flagged(L, msg)
		r.note(t, len(*r.c.Stats)-1)
		return t
	}
	return r.counted(L, command.CmdStat{Spec: spec, Failed: true}, msg)
}

// counted records st with msg as its error and returns msg's table.
func (r *run) counted(L *lua.LState, st command.CmdStat, msg string) *lua.LTable {
	t := flagged(L, msg)
	if r.c.Stats != nil {
		st.Error = replyLine(msg)
		*r.c.Stats = append(*r.c.Stats, st)
		r.note(t, len(*r.c.Stats)-1)
	}
	return t
}

// note remembers that entry i of c.Stats counts t's error.
func (r *run) note(t *lua.LTable, i int) {
	if r.errStat == nil {
		r.errStat = map[*lua.LTable]int{}
	}
	r.errStat[t] = i
}

// flagged is errTable with Redis's ignore_error_stats_update.
func flagged(L *lua.LState, msg string) *lua.LTable {
	t := errTable(L, msg)
	t.RawSetString("ignore_error_stats_update", lua.LTrue)
	return t
}

// replyLine is msg ("-CODE message") as a reply line.
func replyLine(msg string) []byte {
	if len(msg) == 0 || msg[0] != '-' {
		msg = "-" + msg
	}
	return []byte(msg + "\r\n")
}

// nestedErrors counts the errors written inside the script's reply as
// Redis does: the script failed (failed_calls), and each error goes to
// errorstats unless its table was flagged (a call's, counted when made).
func (r *run) nestedErrors(errs []nestedError) {
	if len(errs) == 0 {
		return
	}
	if r.c.Failed != nil {
		*r.c.Failed = true
	}
	if r.c.Stats == nil {
		return
	}
	for _, e := range errs {
		if !e.flagged {
			*r.c.Stats = append(*r.c.Stats, command.CmdStat{Error: replyLine(e.msg)}) // an error only (no Spec)
		}
	}
}

// repliedWith notes the script's reply: when it is a counted call's
// error table, that error is counted as the script's reply instead.
func (r *run) repliedWith(v lua.LValue) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return
	}
	if i, ok := r.errStat[t]; ok && r.c.Stats != nil && i < len(*r.c.Stats) {
		(*r.c.Stats)[i].Error = nil
	}
}
