package scripting

import (
	"math"
	"math/bits"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The bit library (LuaBitOp, as Redis ships it): 32-bit operations whose
// results are signed 32-bit numbers.

func tobit(L *lua.LState, i int) int32 {
	f := float64(L.CheckNumber(i))
	return int32(uint32(int64(math.RoundToEven(math.Mod(f, 4294967296)))))
}

func openBit(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	ret := func(L *lua.LState, v int32) int { L.Push(lua.LNumber(v)); return 1 }
	fold := func(op func(a, b int32) int32) lua.LGFunction {
		return func(L *lua.LState) int {
			v := tobit(L, 1)
			for i := 2; i <= L.GetTop(); i++ {
				v = op(v, tobit(L, i))
			}
			return ret(L, v)
		}
	}
	shift := func(op func(x uint32, n uint) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			return ret(L, int32(op(uint32(tobit(L, 1)), uint(tobit(L, 2))&31)))
		}
	}
	fns := map[string]lua.LGFunction{
		"tobit":   func(L *lua.LState) int { return ret(L, tobit(L, 1)) },
		"bnot":    func(L *lua.LState) int { return ret(L, ^tobit(L, 1)) },
		"band":    fold(func(a, b int32) int32 { return a & b }),
		"bor":     fold(func(a, b int32) int32 { return a | b }),
		"bxor":    fold(func(a, b int32) int32 { return a ^ b }),
		"lshift":  shift(func(x uint32, n uint) uint32 { return x << n }),
		"rshift":  shift(func(x uint32, n uint) uint32 { return x >> n }),
		"arshift": shift(func(x uint32, n uint) uint32 { return uint32(int32(x) >> n) }),
		"rol":     shift(func(x uint32, n uint) uint32 { return bits.RotateLeft32(x, int(n)) }),
		"ror":     shift(func(x uint32, n uint) uint32 { return bits.RotateLeft32(x, -int(n)) }),
		"bswap":   func(L *lua.LState) int { return ret(L, int32(bits.ReverseBytes32(uint32(tobit(L, 1))))) },
		"tohex": func(L *lua.LState) int {
			x := uint32(tobit(L, 1))
			n := int32(8)
			if L.GetTop() >= 2 {
				n = tobit(L, 2)
			}
			digits := "0123456789abcdef"
			if n == math.MinInt32 {
				n = math.MinInt32 + 1 // Redis's LuaBitOp: -n would stay negative
			}
			if n < 0 {
				n, digits = -n, strings.ToUpper(digits)
			}
			n = min(n, 8)
			b := make([]byte, n)
			for i := int(n) - 1; i >= 0; i-- {
				b[i] = digits[x&15]
				x >>= 4
			}
			L.Push(lua.LString(b))
			return 1
		},
	}
	for name, fn := range fns {
		t.RawSetString(name, L.NewFunction(fn))
	}
	return t
}
