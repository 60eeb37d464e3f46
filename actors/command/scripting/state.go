package scripting

import (
	"crypto/sha1"
	"encoding/hex"
	"math/rand/v2"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// vm is a pooled Lua state with the redis library bound to the run in
// progress.
type vm struct {
	L       *lua.LState
	run     *run     // the script running on it; nil between runs
	loading *loading // a library load in progress (register_function)
	// gen is the Scripts' state generation the vm was made in: SCRIPT
	// FLUSH starts a new one, and older vms are dropped (cache.go).
	gen uint64
	// The function libraries loaded on this state: their closures by
	// function name, as of the Functions generation fnGen.
	fnGen uint64
	fns   map[string]*lua.LFunction
	// libEnv is the globals table of the library code and functions
	// loaded on this state (library.go): empty and read-only, its
	// metatable's __index is the load API while a library loads, the
	// globals afterwards. loadAPI is what a library sees as it loads.
	libEnv, libMeta, loadAPI *lua.LTable
	// rng is math.random's generator once math.randomseed seeded it
	// (nil: unseeded).
	rng *rand.Rand
	// maxMemory is Options.MaxMemory: what reserve (memory.go) lets a
	// script's big allocations take.
	maxMemory uint64
	// cjson holds the cjson options of scripts [0] and functions [1]
	// (lib_cjson_options.go), shared by every state of a Scripts.
	cjson [2]*cjsonOptions
}

// newState prepares a Lua state as Redis 7 does: the base, table, string
// and math libraries, Redis's cjson, cmsgpack, bit and struct, the redis
// library, everything reachable from the globals read-only, and the
// restricted environment library code loads in.
func newState(version string, maxMemory uint64, cjson [2]*cjsonOptions) *vm {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 256, RegistrySize: 1024 * 8,
		RegistryMaxSize: 1024 * 256})
	v := &vm{L: L, maxMemory: maxMemory, cjson: cjson}
	setup(L, v, version)
	return v
}

// The sandbox, as Redis 7.0's:
//   - Every table reachable from the globals (the globals, the libraries,
//     the strings' metatable, the metatables themselves) is read-only
//     (gopher-lua's SetReadOnly, rekv's patch): assigning a global or a
//     library field, rawset, table.insert and setmetatable on them raise
//     "Attempt to modify a readonly table". A script can change nothing
//     the next script on the same state would see; KEYS and ARGV are set
//     from Go for each run.
//   - Reading a missing global is an error (the globals' metatable).
//   - getfenv, setfenv and the file and module functions are gone, as in
//     Redis 7.0: nothing can swap a function's or the thread's globals.
//   - Library code (FUNCTION LOAD) runs in an environment of its own with
//     only the load API (redis.register_function, redis.log, the
//     constants): its functions keep that environment, which then reads
//     through to the full, read-only globals.

// setup opens the libraries on L.
func setup(L *lua.LState, v *vm, version string) {
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	g := L.G.Global
	boundAllocations(L, v, g)
	boundStack(L, v, g)
	openStringDump(L, g)
	openMathRandom(L, v, g)
	L.AllocHook = func(L *lua.LState, n int) { v.reserve(L, n) }
	for _, name := range []string{"dofile", "loadfile", "require", "module", "print", "collectgarbage", "newproxy", "_printregs",
		"getfenv", "setfenv"} {
		g.RawSetString(name, lua.LNil)
	}
	r := L.NewTable()
	for name, fn := range map[string]lua.LGFunction{
		"log":                func(L *lua.LState) int { return v.log(L) },
		"call":               func(L *lua.LState) int { return v.call(L, true) },
		"pcall":              func(L *lua.LState) int { return v.call(L, false) },
		"acl_check_cmd":      func(L *lua.LState) int { return v.aclCheckCmd(L) },
		"error_reply":        errorReply,
		"status_reply":       statusReply,
		"sha1hex":            sha1hex,
		"setresp":            func(L *lua.LState) int { return v.setresp(L) },
		"set_repl":           func(*lua.LState) int { return 0 }, // no replicas: nothing to choose
		"replicate_commands": func(L *lua.LState) int { L.Push(lua.LTrue); return 1 },
		"breakpoint":         func(L *lua.LState) int { L.Push(lua.LFalse); return 1 },
		"debug":              func(*lua.LState) int { return 0 },
	} {
		r.RawSetString(name, L.NewFunction(fn))
	}
	constants(r, version)
	g.RawSetString("redis", r)
	null := L.NewUserData() // cjson.null
	g.RawSetString("cjson", openCJSON(L, v, null))
	g.RawSetString("cmsgpack", openCMsgpack(L, v))
	g.RawSetString("bit", openBit(L))
	g.RawSetString("struct", openStruct(L, v))
	setErrorMetatable(L, g)
	protect(g)
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		// getmetatable('').__index == string, as in Redis; read-only.
		protect(mt)
	}
	setupLibraryEnv(L, v, version, g)
}

// setupLibraryEnv makes the environment library code loads in: the load
// API is a redis table with only register_function, log and the
// constants, whose missing fields are errors; no other global exists
// while a library loads.
func setupLibraryEnv(L *lua.LState, v *vm, version string, g *lua.LTable) {
	r := L.NewTable()
	r.RawSetString("register_function", L.NewFunction(v.registerFunction))
	r.RawSetString("log", L.NewFunction(func(L *lua.LState) int { return v.log(L) }))
	constants(r, version)
	setErrorMetatable(L, r)
	api := L.NewTable()
	api.RawSetString("redis", r)
	setErrorMetatable(L, api)
	protect(api)
	v.loadAPI = api
	v.libMeta = L.NewTable()
	v.libMeta.RawSetString("__index", g)
	v.libEnv = L.NewTable()
	L.SetMetatable(v.libEnv, v.libMeta)
	v.libEnv.SetReadOnly(true)
	v.libMeta.SetReadOnly(true) // switched from Go (library.go)
}

// constants sets redis's log levels, replication flags and version.
func constants(r *lua.LTable, version string) {
	for name, n := range map[string]int{"LOG_DEBUG": 0, "LOG_VERBOSE": 1, "LOG_NOTICE": 2, "LOG_WARNING": 3,
		"REPL_NONE": 0, "REPL_AOF": 1, "REPL_SLAVE": 2, "REPL_REPLICA": 2, "REPL_ALL": 3} {
		r.RawSetString(name, lua.LNumber(n))
	}
	r.RawSetString("REDIS_VERSION", lua.LString(version))
	r.RawSetString("REDIS_VERSION_NUM", lua.LNumber(versionNum(version)))
}

// protect makes t, and every table reachable from it through its fields
// and metatables, read-only (Redis's luaSetTableProtectionRecursively).
func protect(t *lua.LTable) {
	if t.ReadOnly() {
		return
	}
	t.SetReadOnly(true)
	if mt, ok := t.Metatable.(*lua.LTable); ok {
		protect(mt)
	}
	t.ForEach(func(_, v lua.LValue) {
		if sub, ok := v.(*lua.LTable); ok {
			protect(sub)
		}
	})
}

// setErrorMetatable makes reading a missing field of t (the globals, the
// load API) an error, with Redis 7.0's text.
func setErrorMetatable(L *lua.LState, t *lua.LTable) {
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		name := L.CheckAny(2).String()
		if name == "loadstring" {
			return 0
		}
		L.RaiseError("Script attempted to access nonexistent global variable '%s'", name)
		return 0
	}))
	L.SetMetatable(t, mt)
}

// versionNum encodes "7.2.0" as 0x070200, like REDIS_VERSION_NUM.
func versionNum(v string) int {
	n, part := 0, 0
	parts := 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == '.' {
			n, part, parts = n<<8|part, 0, parts+1
			continue
		}
		part = part*10 + int(v[i]-'0')
	}
	for ; parts < 3; parts++ {
		n <<= 8
	}
	return n
}

func errorReply(L *lua.LState) int {
	msg := L.CheckString(1)
	if len(msg) == 0 || msg[0] != '-' {
		msg = "-" + msg
	}
	L.Push(errTable(L, msg))
	return 1
}

// errTable builds {err=...} from "-CODE message" or "-message" (code ERR),
// as Redis's luaPushErrorBuff does; a message without "-" gets ERR.
func errTable(L *lua.LState, s string) *lua.LTable {
	code, msg := "ERR", s
	if len(s) > 0 && s[0] == '-' {
		if sp := indexByte(s, ' '); sp < 0 {
			msg = s[1:]
		} else {
			code, msg = s[1:sp], s[sp+1:]
		}
	}
	for len(msg) > 0 && (msg[len(msg)-1] == '\n' || msg[len(msg)-1] == '\r') {
		msg = msg[:len(msg)-1]
	}
	t := L.NewTable()
	t.RawSetString("err", lua.LString(code+" "+msg))
	return t
}

func statusReply(L *lua.LState) int {
	t := L.NewTable()
	t.RawSetString("ok", lua.LString(L.CheckString(1)))
	L.Push(t)
	return 1
}

func sha1hex(L *lua.LState) int {
	if L.GetTop() != 1 {
		L.RaiseError("wrong number of arguments")
	}
	h := sha1.Sum([]byte(L.ToString(1)))
	L.Push(lua.LString(hex.EncodeToString(h[:])))
	return 1
}

func (v *vm) log(L *lua.LState) int {
	if L.GetTop() < 2 {
		raise(L, "redis.log() requires two arguments or more.")
	}
	level, ok := L.Get(1).(lua.LNumber)
	if !ok {
		raise(L, "First argument must be a number (log level).")
	}
	if level < 0 || level > 3 {
		raise(L, "Invalid debug level.")
	}
	msg := ""
	for i := 2; i <= L.GetTop(); i++ {
		if i > 2 {
			msg += " "
		}
		msg += L.ToString(i)
	}
	if r := v.run; r != nil && r.c.Log != nil {
		r.c.Log.Info("script log", "level", int(level), "msg", msg)
	}
	return 0
}

func (v *vm) setresp(L *lua.LState) int {
	if L.GetTop() != 1 {
		raise(L, "redis.setresp() requires one argument.")
	}
	n := L.CheckInt(1)
	if n != 2 && n != 3 {
		raise(L, "RESP version must be 2 or 3.")
	}
	if v.run != nil {
		v.run.resp = n
	}
	return 0
}

// raise raises a Redis error table {err="ERR msg"} (no position prefix,
// as Redis's luaPushError + luaError).
func raise(L *lua.LState, msg string) {
	L.Error(errTable(L, msg), 0)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func itoa(n int) string { return strconv.Itoa(n) }
