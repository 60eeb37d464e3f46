package scripting

import (
	"math"
	"math/rand/v2"

	lua "github.com/yuin/gopher-lua"
)

// openMathRandom replaces gopher-lua's math.random by Lua 5.1's (as Redis
// 7.0 ships it, not seeded per script): no argument gives [0, 1), one
// gives [1, u], two give [l, u]; an empty interval or a third argument is
// an error, and the bounds are C ints (2^40 converts to INT_MIN, as x86
// converts it). gopher-lua's panicked on math.random(0).
func openMathRandom(L *lua.LState, g *lua.LTable) {
	m := g.RawGetString("math").(*lua.LTable)
	m.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		r := rand.Float64()
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
	f := math.Trunc(float64(L.CheckNumber(i)))
	if math.IsNaN(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return math.MinInt32
	}
	return int32(f)
}
