package scripting

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// openMathRandom replaces gopher-lua's math.random and math.randomseed
// by Lua 5.1's (as Redis 7.0 ships them, not seeded per script): no
// argument gives [0, 1), one gives [1, u], two give [l, u]; an empty
// interval or a third argument is an error, and the bounds are C ints
// (2^40 converts to INT_MIN, as x86 converts it). gopher-lua's panicked
// on math.random(0). randomseed(n) makes the state's later numbers a
// sequence n fixes; numbers, as everywhere in Lua 5.1, may be given as
// numeric strings (randomseed("10")).
func openMathRandom(L *lua.LState, v *vm, g *lua.LTable) {
	m := g.RawGetString("math").(*lua.LTable)
	m.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		seed := int64(checkNumber(L, 1))
		v.rng = rand.New(rand.NewPCG(uint64(seed), 0))
		return 0
	}))
	m.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		var r float64
		if v.rng != nil {
			r = v.rng.Float64()
		} else {
			r = rand.Float64()
		}
		switch L.GetTop() {
		case 0:
			L.Push(lua.LNumber(r))
		case 1:
			u := cInt(L, 1)
			if u < 1 {
				L.ArgError(1, "interval is empty")
			}
			L.Push(lua.LNumber(math.Floor(r*float64(u)) + 1))
		case 2:
			l, u := cInt(L, 1), cInt(L, 2)
			if l > u {
				L.ArgError(2, "interval is empty")
			}
			L.Push(lua.LNumber(math.Floor(r*(float64(u)-float64(l)+1)) + float64(l)))
		default:
			L.RaiseError("wrong number of arguments")
		}
		return 1
	}))
}

// cInt is luaL_checkint on x86: the number truncated to a C int, and
// anything out of range (NaN included) INT_MIN.
func cInt(L *lua.LState, i int) int32 {
	f := math.Trunc(checkNumber(L, i))
	if math.IsNaN(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return math.MinInt32
	}
	return int32(f)
}

// checkNumber is Lua 5.1's luaL_checknumber: argument i as a number, a
// numeric string converted (gopher-lua's CheckNumber refuses strings).
func checkNumber(L *lua.LState, i int) float64 {
	switch a := L.Get(i).(type) {
	case lua.LNumber:
		return float64(a)
	case lua.LString:
		s := strings.TrimSpace(string(a))
		if n, err := strconv.ParseInt(s, 0, 64); err == nil {
			return float64(n)
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	L.TypeError(i, lua.LTNumber)
	return 0
}
