package scripting

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// library is one function library (FUNCTION LOAD): its code and the
// functions its load registered.
type library struct {
	name  string
	code  string
	funcs []*function // by name
}

// function is one registered function.
type function struct {
	name  string
	desc  string
	flags []string
	sf    scriptFlags
}

// find returns the library's function name; function names are
// case-insensitive, as in Redis (FCALL TEST runs test).
func (l *library) find(name string) *function {
	for _, f := range l.funcs {
		if strings.EqualFold(f.name, name) {
			return f
		}
	}
	return nil
}

// parseLibrary validates code as FUNCTION LOAD does: the "#!lua
// name=<name>" shebang, then a run of the code on a state of its own, in
// the environment library code loads in (state.go).
func parseLibrary(code string) (*library, error) {
	first, _, _ := strings.Cut(code, "\n")
	if !strings.HasPrefix(first, "#!") {
		return nil, rerr.Errorf("ERR Missing library metadata")
	}
	// Split as Redis's sdssplitargs: quotes group (name="foo" is foo).
	parts, ok := resp.SplitArgs([]byte(first), nil)
	if !ok || len(parts) == 0 {
		return nil, rerr.Errorf("ERR Invalid library metadata")
	}
	if !strings.EqualFold(string(parts[0]), "#!lua") { // engine names are case-insensitive, as Redis's
		return nil, rerr.Errorf("ERR Engine '%s' not found", strings.TrimPrefix(string(parts[0]), "#!"))
	}
	lib := &library{code: code}
	named := false
	for _, p := range parts[1:] {
		if len(p) < 5 || !strings.EqualFold(string(p[:5]), "name=") {
			return nil, rerr.Errorf("ERR Invalid metadata value given: %s", p)
		}
		if named {
			return nil, rerr.Errorf("ERR Invalid metadata value, name argument was given multiple times")
		}
		lib.name, named = string(p[5:]), true
	}
	if lib.name == "" {
		return nil, rerr.Errorf("ERR Library name was not given")
	}
	if !validName(lib.name) {
		return nil, rerr.Errorf("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long")
	}
	v := newState("", loadMaxMemory, [2]*cjsonOptions{newCJSONOptions(), newCJSONOptions()})
	defer v.L.Close()
	v.loading = &loading{lib: lib}
	if err := v.loadLibrary(code); err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			return nil, rerr.Errorf("ERR Error compiling function: %s", ce.msg)
		}
		return nil, rerr.Errorf("ERR Error registering functions: %s", err.Error())
	}
	if len(lib.funcs) == 0 {
		return nil, rerr.Errorf("ERR No functions registered")
	}
	slices.SortFunc(lib.funcs, func(a, b *function) int { return strings.Compare(a.name, b.name) })
	return lib, nil
}

// loading is a library load in progress on a vm: register_function adds
// to lib, and (on a run state) binds the callbacks in fns.
type loading struct {
	lib *library
	fns map[string]*lua.LFunction
}

// A library's load code runs at most loadTimeout (Redis's 500 ms, looked
// at every loadCheckEvery instructions: see loadClock), and a single
// allocation of it is bounded by loadMaxMemory.
const (
	loadTimeout   = 500 * time.Millisecond
	loadMaxMemory = 512 << 20
)

// compileError is a library's code that does not compile.
type compileError struct{ msg string }

func (e *compileError) Error() string { return e.msg }

// loadLibrary runs a library's code on v; the shebang line is blanked so
// line numbers stay the code's.
func (v *vm) loadLibrary(code string) error {
	_, rest, _ := strings.Cut(code, "\n")
	proto, err := compileChunk("\n"+rest, "user_function")
	if err != nil {
		return &compileError{compileMessage(err, "user_function")}
	}
	ctx := newLoadClock(time.Now(), loadTimeout)
	v.L.SetContext(ctx)
	defer v.L.RemoveContext()
	// The code runs with the load API for globals; the functions it
	// registers keep its environment, which reads the full globals once
	// the load is over.
	v.libMeta.RawSetString("__index", v.loadAPI)
	defer v.libMeta.RawSetString("__index", v.L.G.Global)
	fn := v.L.NewFunctionFromProto(proto)
	fn.Env = v.libEnv
	v.L.Push(fn)
	if err := v.L.PCall(0, 0, v.L.NewFunction(errorHandler)); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return rerr.Errorf("ERR FUNCTION LOAD timeout")
		}
		r := &run{name: "", source: "user_function"}
		return rerr.Errorf("%s", r.plainError(err))
	}
	return nil
}

// registerFunction is redis.register_function(name, callback) or
// redis.register_function{function_name=, callback=, flags=, description=},
// with Redis 7.0's checks and texts (function_lua.c).
func (v *vm) registerFunction(L *lua.LState) int {
	ld := v.loading
	if ld == nil {
		raise(L, "redis.register_function can only be called on FUNCTION LOAD command")
	}
	f := &function{}
	var cb *lua.LFunction
	switch L.GetTop() {
	case 1:
		cb = namedArgs(L, f)
	case 2:
		if !isLuaString(L.Get(1)) {
			raise(L, "first argument to redis.register_function must be a string")
		}
		f.name = L.Get(1).String()
		var ok bool
		if cb, ok = L.Get(2).(*lua.LFunction); !ok {
			raise(L, "second argument to redis.register_function must be a function")
		}
	default:
		raise(L, "wrong number of arguments to redis.register_function")
	}
	if !validName(f.name) {
		raise(L, "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long") // sic: Redis 7.0 says "Library" here too
	}
	if ld.lib.find(f.name) != nil {
		raise(L, "Function already exists in the library")
	}
	ld.lib.funcs = append(ld.lib.funcs, f)
	if ld.fns != nil {
		ld.fns[f.name] = cb
	}
	return 0
}

// namedArgs reads register_function's one table argument into f and
// returns the callback.
func namedArgs(L *lua.LState, f *function) *lua.LFunction {
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		raise(L, "calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).")
	}
	var cb *lua.LFunction
	var bad string
	named := false
	eachPair(t, func(k, val lua.LValue) {
		if bad != "" {
			return
		}
		if !isLuaString(k) {
			bad = "named argument key given to redis.register_function is not a string"
			return
		}
		switch strings.ToLower(k.String()) {
		case "function_name":
			if !isLuaString(val) {
				bad = "function_name argument given to redis.register_function must be a string"
				return
			}
			f.name, named = val.String(), true
		case "description":
			if !isLuaString(val) {
				bad = "description argument given to redis.register_function must be a string"
				return
			}
			f.desc = val.String()
		case "callback":
			var ok bool
			if cb, ok = val.(*lua.LFunction); !ok {
				bad = "callback argument given to redis.register_function must be a function"
			}
		case "flags":
			fl, ok := val.(*lua.LTable)
			if !ok {
				bad = "flags argument to redis.register_function must be a table representing function flags"
				return
			}
			eachPair(fl, func(_, name lua.LValue) {
				bit, known := flagNames[name.String()]
				if !known || !isLuaString(name) {
					bad = "unknown flag given"
				}
				f.flags = append(f.flags, name.String())
				f.sf |= bit
			})
		default:
			bad = "unknown argument given to redis.register_function"
		}
	})
	switch {
	case bad != "":
		raise(L, bad)
	case !named:
		raise(L, "redis.register_function must get a function name argument")
	case cb == nil:
		raise(L, "redis.register_function must get a callback argument")
	}
	return cb
}

// isLuaString reports what Lua's lua_isstring does: a string or a number.
func isLuaString(v lua.LValue) bool {
	switch v.(type) {
	case lua.LString, lua.LNumber:
		return true
	}
	return false
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
