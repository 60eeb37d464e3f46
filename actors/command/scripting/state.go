package scripting

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// vm is a pooled Lua state with the redis library bound to the run in
// progress.
type vm struct {
	L       *lua.LState
	run     *run     // the script running on it; nil between runs
	loading *loading // a library load in progress (register_function)
	// The function libraries loaded on this state: their closures by
	// function name, as of the Functions generation fnGen.
	fnGen uint64
	fns   map[string]*lua.LFunction
	// maxMemory is Options.MaxMemory: what reserve (memory.go) lets a
	// script's big allocations take.
	maxMemory uint64
	// cjson holds the cjson options of scripts [0] and functions [1]
	// (lib_cjson_options.go), shared by every state of a Scripts.
	cjson [2]*cjsonOptions
}

// newState prepares a Lua state as Redis does: the base, table, string and
// math libraries, Redis's cjson, cmsgpack, bit and struct, the redis
// library, and read-only globals.
func newState(version string, maxMemory uint64, cjson [2]*cjsonOptions) *vm {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 256, RegistrySize: 1024 * 8,
		RegistryMaxSize: 1024 * 256})
	v := &vm{L: L, maxMemory: maxMemory, cjson: cjson}
	setup(L, v, version, false)
	return v
}

// setup opens the libraries on L. A load-only state (FUNCTION LOAD's
// check) has a redis library with only register_function, log and the
// constants; reading anything else from it is an error, as in Redis.
func setup(L *lua.LState, v *vm, version string, loadOnly bool) {
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	g := L.G.Global
	boundAllocations(L, v, g)
	boundStack(L, v, g)
	openMathRandom(L, g)
	L.AllocHook = func(L *lua.LState, n int) { v.reserve(L, n) }
	for _, name := range []string{"dofile", "loadfile", "require", "module", "print", "collectgarbage", "newproxy", "_printregs"} {
		g.RawSetString(name, lua.LNil)
	}
	r := L.NewTable()
	fns := map[string]lua.LGFunction{
		"register_function": v.registerFunction,
		"log":               func(L *lua.LState) int { return v.log(L) },
	}
	if !loadOnly {
		for name, fn := range map[string]lua.LGFunction{
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
			fns[name] = fn
		}
	}
	for name, fn := range fns {
		r.RawSetString(name, L.NewFunction(fn))
	}
	for name, n := range map[string]int{"LOG_DEBUG": 0, "LOG_VERBOSE": 1, "LOG_NOTICE": 2, "LOG_WARNING": 3,
		"REPL_NONE": 0, "REPL_AOF": 1, "REPL_SLAVE": 2, "REPL_REPLICA": 2, "REPL_ALL": 3} {
		r.RawSetString(name, lua.LNumber(n))
	}
	r.RawSetString("REDIS_VERSION", lua.LString(version))
	r.RawSetString("REDIS_VERSION_NUM", lua.LNumber(versionNum(version)))
	g.RawSetString("redis", r)
	null := L.NewUserData() // cjson.null
	g.RawSetString("cjson", openCJSON(L, v, null))
	g.RawSetString("cmsgpack", openCMsgpack(L, v))
	g.RawSetString("bit", openBit(L))
	g.RawSetString("struct", openStruct(L, v))
	libs := map[*lua.LTable]bool{}
	for _, lib := range []string{"redis", "string", "table", "math", "cjson", "cmsgpack", "bit", "struct"} {
		proxy := readOnly(L, g.RawGetString(lib).(*lua.LTable), loadOnly && lib == "redis")
		g.RawSetString(lib, proxy)
		libs[proxy] = true
	}
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		// ("x"):rep(2) reads the string library through its proxy, so
		// getmetatable('').__index == string, as in Redis; the
		// metatable itself is read-only.
		mt.RawSetString("__index", g.RawGetString("string"))
		mt.RawSetString("__metatable", readOnly(L, mt, false))
	}
	guardRaw(L, g, libs)
	protectGlobals(L, g)
}

// guardRaw replaces rawset, setmetatable and getmetatable so that the
// globals table and the libraries stay read-only, as Redis 7.0's Lua
// keeps them (its tables carry a read-only flag; here they are proxies
// whose raw fields would shadow the library for every later script).
func guardRaw(L *lua.LState, g *lua.LTable, libs map[*lua.LTable]bool) {
	readonly := func(L *lua.LState) {
		if t, ok := L.Get(1).(*lua.LTable); ok && (t == g || libs[t]) {
			raise(L, "Attempt to modify a readonly table")
		}
	}
	for _, name := range []string{"rawset", "setmetatable"} {
		orig := g.RawGetString(name).(*lua.LFunction).GFunction
		g.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			readonly(L)
			return orig(L)
		}))
	}
	getmt := g.RawGetString("getmetatable").(*lua.LFunction).GFunction
	g.RawSetString("getmetatable", L.NewFunction(func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok && libs[t] {
			L.Push(lua.LNil) // Redis's libraries have no metatable
			return 1
		}
		return getmt(L)
	}))
}

// readOnly returns an empty proxy of t whose reads go to t and whose
// writes are refused, so a script cannot change a library for the next;
// with strict, reading a missing field is an error too.
func readOnly(L *lua.LState, t *lua.LTable, strict bool) *lua.LTable {
	proxy := L.NewTable()
	mt := L.NewTable()
	mt.RawSetString("__index", t)
	if strict {
		mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
			k := L.CheckAny(2)
			if v := t.RawGet(k); v != lua.LNil {
				L.Push(v)
				return 1
			}
			L.RaiseError("Script attempted to access nonexistent global variable '%s'", k.String())
			return 0
		}))
	}
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("Attempt to modify a readonly table")
		return 0
	}))
	mt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(proxy, mt)
	return proxy
}

// protectGlobals makes reading a missing global and writing any global an
// error, with Redis 7.0's texts.
func protectGlobals(L *lua.LState, g *lua.LTable) {
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		name := L.CheckAny(2).String()
		if name == "loadstring" {
			return 0
		}
		L.RaiseError("Script attempted to access nonexistent global variable '%s'", name)
		return 0
	}))
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("Attempt to modify a readonly table")
		return 0
	}))
	mt.RawSetString("__metatable", readOnly(L, mt, false)) // getmetatable(_G), read-only
	L.SetMetatable(g, mt)
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
