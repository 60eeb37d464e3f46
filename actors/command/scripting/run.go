package scripting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/resp"
)

// run is one execution of a script.
type run struct {
	scripts  *Scripts
	state    *running
	c        *command.Ctx
	name     string // the script's sha, or the function's name
	source   string // "user_script" or "user_function"
	readOnly bool   // EVAL_RO or #!lua flags=no-writes
	// flags are the script's or function's declared flags; declared: it
	// has them (a function, or a script with a shebang).
	flags    scriptFlags
	declared bool
	// oomAtStart: used memory was over maxmemory as the script started
	// (Redis's pre_command_oom_state); dirty: it called a write already.
	// Both decide what its next write meets (callCommand).
	oomAtStart, dirty bool
	resp              int      // redis.setresp: 2 or 3
	abort             error    // a Go error that ends the script (ErrAllShards, storage)
	command           [][]byte // the command line that runs it (FUNCTION STATS)
	client            *scriptClient
	// errStat maps the error tables of failed calls to the entry of
	// c.Stats that counts their error (errstats.go).
	errStat map[*lua.LTable]int
}

// errAbort is raised in Lua to unwind a script that must stop for a Go
// reason (run.abort holds it); scripts cannot catch it with pcall because
// redis.call raises it only after recording run.abort, which is checked
// first.
const errAbort = "rekv: script aborted"

// exec runs sc with keys and argv and writes its reply to c.W.
func (s *Scripts) exec(c *command.Ctx, sc *script, keys, argv [][]byte, readOnly bool) error {
	v := s.state()
	r := &run{scripts: s, c: c, name: sc.sha, source: "user_script", readOnly: readOnly || sc.flags&flagNoWrites != 0, resp: 2, flags: sc.flags, declared: sc.declared,
		client: &scriptClient{db: c.DB}}
	defer s.release(v)
	g := v.L.G.Global
	g.RawSetString("KEYS", stringsTable(v.L, keys))
	g.RawSetString("ARGV", stringsTable(v.L, argv))
	return v.runFunction(r, v.L.NewFunctionFromProto(sc.proto))
}

// runFunction calls fn (already given its arguments on the stack after
// it, nargs of them) for r and writes its reply or error to r.c.W.
func (v *vm) runFunction(r *run, fn *lua.LFunction, args ...lua.LValue) error {
	if r.declared && r.flags&flagNoCluster != 0 && r.c.ClusterMode() {
		return rerr.Errorf("ERR Can not run script on cluster, 'no-cluster' flag is set.")
	}
	if r.c.Server.Status != nil && r.flags&flagAllowOOM == 0 {
		r.oomAtStart = r.c.Server.Status.OverMaxMemory()
	}
	L := v.L
	v.run = r
	state, ctx := r.scripts.running.add(r.source == "user_function", r.name, r.command)
	r.state = state
	L.SetContext(ctx)
	stopWatch := r.scripts.watch(state)
	defer func() {
		stopWatch()
		r.scripts.running.remove(state)
		L.RemoveContext()
		v.run = nil
		L.SetTop(0)
	}()
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	err := L.PCall(len(args), 1, L.NewFunction(errorHandler))
	if r.abort != nil {
		return r.abort
	}
	if err != nil && state.oom.Load() {
		r.c.W.Error(fmt.Sprintf("ERR Script used more memory than allowed (lua_max_memory_mib) script: %s, on @%s:%d.", r.name, r.source, r.line(L, err)))
		return nil
	}
	if err != nil && state.killed.Load() {
		// Redis 7.0 words a killed function's error as a script's too.
		r.c.W.Error(fmt.Sprintf("ERR Script killed by user with SCRIPT KILL... script: %s, on @%s:%d.", r.name, r.source, r.line(L, err)))
		return nil
	}
	if err != nil {
		var ae *lua.ApiError
		if errors.As(err, &ae) {
			r.repliedWith(ae.Object)
		}
		r.c.W.Error(r.errorText(err))
		return nil
	}
	r.repliedWith(L.Get(-1))
	r.nestedErrors(writeReply(r.c.W, L.Get(-1), r.resp, r.scripts.maxReply))
	return nil
}

func stringsTable(L *lua.LState, items [][]byte) *lua.LTable {
	t := L.CreateTable(len(items), 0)
	for i, it := range items {
		t.RawSetInt(i+1, lua.LString(it))
	}
	return t
}

// errorHandler turns any error into Redis's error table {err=..., source,
// line}: a string error becomes "ERR <message>".
func errorHandler(L *lua.LState) int {
	e := L.Get(1)
	t, ok := e.(*lua.LTable)
	if !ok {
		t = L.NewTable()
		t.RawSetString("err", lua.LString("ERR "+luaWording(e.String())))
	}
	for level := 0; level < 8; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sl", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 {
			t.RawSetString("source", lua.LString("@user_script"))
			t.RawSetString("line", lua.LNumber(dbg.CurrentLine))
			break
		}
	}
	L.Push(t)
	return 1
}

// luaWording quotes the function name of gopher-lua's argument errors as
// Lua 5.1 does: "bad argument #1 to 'rep' (...)", not "to rep (...)".
func luaWording(msg string) string {
	const bad = "bad argument #"
	i := strings.Index(msg, bad)
	if i < 0 {
		return msg
	}
	rest := msg[i+len(bad):]
	num, after, ok := strings.Cut(rest, " to ")
	if !ok || strings.Trim(num, "0123456789") != "" {
		return msg
	}
	name, tail, ok := strings.Cut(after, " (")
	if !ok || name == "" || strings.ContainsAny(name, " '") {
		return msg
	}
	return msg[:i] + bad + num + " to '" + name + "' (" + tail
}

// errorText renders a failed script's error as Redis's reply text.
func (r *run) errorText(err error) string {
	out := r.plainError(err)
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		if t, ok := ae.Object.(*lua.LTable); ok {
			if line, ok := t.RawGetString("line").(lua.LNumber); ok {
				out += fmt.Sprintf(" script: %s, on @%s:%d.", r.name, r.source, int(line))
			}
		}
	}
	return out
}

// plainError is the error's message without its position.
func (r *run) plainError(err error) string {
	var ae *lua.ApiError
	if !errors.As(err, &ae) {
		return "ERR Error running script " + r.name + ", " + err.Error()
	}
	t, ok := ae.Object.(*lua.LTable)
	if !ok {
		return "ERR " + ae.Object.String()
	}
	msg, ok := t.RawGetString("err").(lua.LString)
	if !ok {
		return "ERR Error running script " + r.name + ", execution failure"
	}
	return string(msg)
}

// call is redis.call (raise true) and redis.pcall.
func (v *vm) call(L *lua.LState, raiseErr bool) int {
	r := v.run
	if r == nil || r.abort != nil {
		L.RaiseError(errAbort)
		return 0
	}
	reply, err := r.callCommand(L)
	if err != nil {
		r.abort = err
		L.RaiseError(errAbort)
		return 0
	}
	if t, ok := reply.(*lua.LTable); ok && raiseErr {
		if _, isErr := t.RawGetString("err").(lua.LString); isErr {
			L.Error(t, 0)
			return 0
		}
	}
	L.Push(reply)
	return 1
}

// debugAllowed reports whether spec is DEBUG (ScriptDebug) while DEBUG
// SET-DISABLE-DENY-SCRIPTS lets scripts call it.
func (r *run) debugAllowed(spec *command.Spec) bool {
	return spec.Flags&command.ScriptDebug != 0 && r.c.Server.Node != nil && r.c.Server.Node.ScriptDebug()
}

// callCommand runs the command in the Lua call's arguments and returns its
// reply as a Lua value ({err=...} for errors), or a Go error that must end
// the script.
func (r *run) callCommand(L *lua.LState) (lua.LValue, error) {
	args, bad := commandArgs(L)
	if bad != "" {
		return errTable(L, "-ERR "+bad), nil
	}
	c := r.c
	spec, err := c.Registry.Resolve(args)
	if err != nil {
		if c.Registry.Lookup(args[0]) == nil {
			return r.refused(L, nil, "-ERR Unknown Redis command called from script"), nil
		}
		if errors.Is(err, rerr.ErrArityAny) {
			return r.refused(L, c.Registry.Lookup(args[0]), "-ERR Wrong number of args calling Redis command from script"), nil
		}
		return r.refused(L, nil, "-"+errMessage(err)), nil
	}
	if spec.Flags&command.NoScript != 0 && !r.debugAllowed(spec) {
		return r.refused(L, spec, "-ERR This Redis command is not allowed from script"), nil
	}
	if r.readOnly && spec.Flags&(command.Write|command.MayReplicate) != 0 {
		// May-replicate commands (PUBLISH) count as writes here, as in
		// Redis: so a read-only script may run during CLIENT PAUSE WRITE.
		return r.refused(L, spec, "-ERR Write commands are not allowed from read-only scripts."), nil
	}
	if refusal := r.writeRefusal(spec); refusal != nil {
		return r.refused(L, spec, "-"+refusal.Msg), nil
	}
	if c.Holds != nil {
		if spec.Flags&(command.Keyspace|command.AllShards) != 0 {
			return nil, command.ErrAllShards
		}
		var idx [8]int
		for _, i := range spec.KeyIndexes(args, idx[:0]) {
			if !c.Holds(args[i]) {
				return nil, command.ErrAllShards
			}
		}
	}
	if c.User != nil { // the caller's ACL user, restricted
		if d := acl.Permit(c.User, spec, args); d != nil {
			if c.Server.Config != nil {
				c.Server.Config.ACL().Log(d.Reason, "lua", d.Object, c.User.Name, c.ClientInfo())
			}
			msg := map[string]string{
				"command": "-ERR The user executing the script can't run this command or subcommand",
				"key":     "-ERR The user executing the script can't access at least one of the keys mentioned in the command arguments",
				"channel": "-ERR The user executing the script can't publish to the channel mentioned in the command",
			}[d.Reason]
			return r.refused(L, spec, msg), nil
		}
	}
	if c.TrackRead != nil && spec.Flags&command.ReadOnly != 0 {
		c.TrackRead() // the caller tracks the script's declared keys
	}
	if c.Server.Status != nil {
		// Cluster mode, as Redis 7.0: a script touches only keys of slots
		// this node owns (declared keys were routed by their slot; this
		// catches the undeclared ones).
		if st, _ := c.Server.Status.Cluster(); st != nil {
			var idx [8]int
			for _, i := range spec.KeyIndexes(args, idx[:0]) {
				if !st.Mine(cluster.KeySlot(args[i])) {
					return r.refused(L, spec, "-ERR Script attempted to access a non local key in a cluster node"), nil
				}
			}
		}
		c.Server.Status.Monitor(c.DB, "lua", args)
	}
	runner, err := spec.Parse(args)
	if err != nil {
		return r.failed(L, spec, "-"+errMessage(err), false), nil
	}
	w := resp.NewWriter(r.resp)
	r.client.proto = r.resp
	if spec.Flags&command.Write != 0 {
		r.state.wrote.Store(true)
		r.dirty = r.dirty || spec.RedisWrite()
	}
	if err := c.Call(spec, args, runner, command.Client{Conn: r.client}, w); err != nil {
		var re *rerr.Error
		if !errors.As(err, &re) {
			return nil, err // storage trouble, conflict, a panic: the engine decides
		}
		return r.failed(L, spec, "-"+re.Msg, true), nil
	}
	if spec.Flags&command.Conn != 0 && r.client.db != c.Tx.DB() {
		c.Tx.Use(r.client.db) // SELECT inside the script
	}
	rep, _, err := resp.ParseReply(w.Bytes())
	if err != nil {
		return nil, fmt.Errorf("scripting: %s replied %q: %w", spec.FullName(), w.Bytes(), err)
	}
	if rep.Kind == '-' {
		return r.failed(L, spec, "-"+string(rep.Str), true), nil
	}
	return toLua(L, rep), nil
}

// writeRefusal returns why a write the script calls may not run, as
// Redis's scriptVerifyWriteCommandAllow and scriptVerifyOOM: only its
// first write is checked (once it wrote, failing it on the server's state
// would leave it half done) against a read-only replica, a failing store
// and min-replicas-to-write, and then, unless the script is allow-oom,
// against maxmemory as it stood when the script started.
func (r *run) writeRefusal(spec *command.Spec) *rerr.Error {
	if r.dirty || r.c.Server.Status == nil || !spec.RedisWrite() {
		return nil
	}
	var re *rerr.Error
	if err := r.c.Server.Status.WriteRefusal(); errors.As(err, &re) {
		return re
	}
	if r.oomAtStart && spec.Flags&command.DenyOOM != 0 {
		return rerr.ErrOOM
	}
	return nil
}

// commandArgs returns the arguments of a redis.call (or pcall,
// acl_check_cmd) as a command line, or the error Redis gives for them.
func commandArgs(L *lua.LState) ([][]byte, string) {
	n := L.GetTop()
	if n == 0 {
		return nil, "Please specify at least one argument for this redis lib call"
	}
	args := make([][]byte, n)
	for i := 1; i <= n; i++ {
		switch a := L.Get(i).(type) {
		case lua.LString:
			args[i-1] = []byte(a)
		case lua.LNumber:
			args[i-1] = argNumber(float64(a))
		default:
			return nil, "Lua redis lib command arguments must be strings or integers"
		}
	}
	return args, ""
}

// argNumber is a number a script passes to redis.call as Redis 7.0
// writes it, C's "%.17g" (not Lua's own %.14g): 0.1+0.2 is
// 0.30000000000000004.
func argNumber(f float64) []byte {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return []byte(lua.LNumber(f).String()) // inf, -inf, nan, -nan
	case f == math.Trunc(f) && math.Abs(f) < 1e17:
		return strconv.AppendInt(nil, int64(f), 10)
	}
	return strconv.AppendFloat(nil, f, 'g', 17, 64)
}

// errMessage is an error's reply text.
func errMessage(err error) string {
	var re *rerr.Error
	if errors.As(err, &re) {
		return re.Msg
	}
	return strings.TrimSpace(err.Error())
}

// line returns the line the script was at (for a killed script), 1 when
// unknown.
func (r *run) line(L *lua.LState, err error) int {
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		if t, ok := ae.Object.(*lua.LTable); ok {
			if line, ok := t.RawGetString("line").(lua.LNumber); ok && line > 0 {
				return int(line) // where the error was raised (errorHandler)
			}
		}
	}
	for level := 0; level < 8; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("l", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 {
			return dbg.CurrentLine
		}
	}
	return 1
}
