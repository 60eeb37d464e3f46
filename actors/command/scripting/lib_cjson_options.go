package scripting

import (
	"math"
	"strconv"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// cjson's options, as lua-cjson 2.1 (Redis's) has them: each function sets
// its option when given a value and returns the option as it is now. As in
// Redis, they are the Lua engine's state, not a script's: an option set by
// one EVAL holds for the next ones until SCRIPT FLUSH (a new Lua state in
// Redis); functions have their own (their own Lua state in Redis).
type cjsonOptions struct {
	mu  sync.Mutex
	set cjsonSettings
}

// cjsonSettings are the option values one encode or decode uses.
type cjsonSettings struct {
	encodeMaxDepth int
	decodeMaxDepth int
	precision      int  // encode_number_precision, 1..14
	encodeInvalid  int  // encode_invalid_numbers: 0 refuse, 1 nan/inf, 2 null
	decodeInvalid  bool // decode_invalid_numbers: hex, inf, nan, leading zeros
	sparseConvert  bool // encode_sparse_array: an excessively sparse array as an object
	sparseRatio    int
	sparseSafe     int
	keepBuffer     bool // encode_keep_buffer: kept for its reply only
}

// cjsonDefaults returns lua-cjson's defaults.
func cjsonDefaults() cjsonSettings {
	return cjsonSettings{encodeMaxDepth: jsonMaxDepth, decodeMaxDepth: jsonMaxDepth, precision: 14,
		decodeInvalid: true, sparseRatio: 2, sparseSafe: 10, keepBuffer: true}
}

func newCJSONOptions() *cjsonOptions { return &cjsonOptions{set: cjsonDefaults()} }

// reset restores lua-cjson's defaults.
func (o *cjsonOptions) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.set = cjsonDefaults()
}

// snapshot returns the settings for one encode or decode.
func (o *cjsonOptions) snapshot() cjsonSettings {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.set
}

// options returns the cjson options of the engine running on v now:
// functions' (a function, or a library's load) or scripts'.
func (v *vm) cjsonOptions() *cjsonOptions {
	if v.loading != nil || v.run != nil && v.run.source == "user_function" {
		return v.cjson[1]
	}
	return v.cjson[0]
}

// openCJSONOptions adds the option functions to the cjson table t.
func openCJSONOptions(L *lua.LState, v *vm, t *lua.LTable) {
	integer := func(name string, field func(*cjsonSettings) *int, lo, hi int) {
		t.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			cjsonArgs(L, 1)
			o := v.cjsonOptions()
			o.mu.Lock()
			defer o.mu.Unlock()
			cjsonInteger(L, 1, field(&o.set), lo, hi)
			L.Push(lua.LNumber(*field(&o.set)))
			return 1
		}))
	}
	boolean := func(name string, field func(*cjsonSettings) *bool) {
		t.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			cjsonArgs(L, 1)
			o := v.cjsonOptions()
			o.mu.Lock()
			defer o.mu.Unlock()
			cjsonBool(L, 1, field(&o.set))
			L.Push(lua.LBool(*field(&o.set)))
			return 1
		}))
	}
	integer("encode_max_depth", func(o *cjsonSettings) *int { return &o.encodeMaxDepth }, 1, math.MaxInt32)
	integer("decode_max_depth", func(o *cjsonSettings) *int { return &o.decodeMaxDepth }, 1, math.MaxInt32)
	integer("encode_number_precision", func(o *cjsonSettings) *int { return &o.precision }, 1, 14)
	boolean("decode_invalid_numbers", func(o *cjsonSettings) *bool { return &o.decodeInvalid })
	boolean("encode_keep_buffer", func(o *cjsonSettings) *bool { return &o.keepBuffer })
	t.RawSetString("encode_invalid_numbers", L.NewFunction(func(L *lua.LState) int {
		cjsonArgs(L, 1)
		o := v.cjsonOptions()
		o.mu.Lock()
		defer o.mu.Unlock()
		names := []string{"off", "on", "null"}
		switch a := L.Get(1).(type) {
		case lua.LBool:
			o.set.encodeInvalid = 0
			if a {
				o.set.encodeInvalid = 1
			}
		case *lua.LNilType:
		default:
			o.set.encodeInvalid = cjsonOption(L, 1, names)
		}
		if o.set.encodeInvalid == 2 {
			L.Push(lua.LString("null"))
		} else {
			L.Push(lua.LBool(o.set.encodeInvalid == 1))
		}
		return 1
	}))
	t.RawSetString("encode_sparse_array", L.NewFunction(func(L *lua.LState) int {
		cjsonArgs(L, 3)
		o := v.cjsonOptions()
		o.mu.Lock()
		defer o.mu.Unlock()
		cjsonBool(L, 1, &o.set.sparseConvert)
		cjsonInteger(L, 2, &o.set.sparseRatio, 0, math.MaxInt32)
		cjsonInteger(L, 3, &o.set.sparseSafe, 0, math.MaxInt32)
		L.Push(lua.LBool(o.set.sparseConvert))
		L.Push(lua.LNumber(o.set.sparseRatio))
		L.Push(lua.LNumber(o.set.sparseSafe))
		return 3
	}))
}

// cjsonOneArg refuses anything but one argument (encode, decode).
func cjsonOneArg(L *lua.LState) {
	if L.GetTop() != 1 {
		L.ArgError(1, "expected 1 argument")
	}
}

// cjsonArgs refuses more than n arguments, as lua-cjson does.
func cjsonArgs(L *lua.LState, n int) {
	if L.GetTop() > n {
		L.ArgError(n+1, "found too many arguments")
	}
}

// cjsonInteger sets *p from argument i when given (an integer in
// [lo, hi]).
func cjsonInteger(L *lua.LState, i int, p *int, lo, hi int) {
	if L.Get(i) != lua.LNil {
		n := int(int64(L.CheckNumber(i)))
		if n < lo || n > hi {
			L.ArgError(i, "expected integer between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi))
		}
		*p = n
	}
}

// cjsonBool sets *p from argument i when given (a boolean, "on" or
// "off").
func cjsonBool(L *lua.LState, i int, p *bool) {
	switch a := L.Get(i).(type) {
	case lua.LBool:
		*p = bool(a)
	case *lua.LNilType:
	default:
		*p = cjsonOption(L, i, []string{"off", "on"}) == 1
	}
}

// cjsonOption is luaL_checkoption: the index of argument i among names.
func cjsonOption(L *lua.LState, i int, names []string) int {
	s := L.CheckString(i)
	for k, n := range names {
		if s == n {
			return k
		}
	}
	L.ArgError(i, "invalid option '"+s+"'")
	return 0
}
