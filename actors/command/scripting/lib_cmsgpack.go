package scripting

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// The cmsgpack library (lua-cmsgpack, as Redis ships it): cmsgpack.pack(...)
// encodes each argument and concatenates them; cmsgpack.unpack(s) returns
// every value in s, unpack_one(s [, offset]) and unpack_limit(s, limit [,
// offset]) the next offset (-1 at the end) and the values read. Integral numbers encode as the smallest integer type,
// others as float32 when exact, else float64; tables whose keys are 1..n
// as arrays, others as maps.

func openCMsgpack(L *lua.LState, v *vm) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("pack", L.NewFunction(func(L *lua.LState) int {
		if L.GetTop() == 0 {
			L.ArgError(0, "MessagePack pack needs input.")
		}
		var b []byte
		out := &outBound{L: L, v: v}
		for i := 1; i <= L.GetTop(); i++ {
			b = mpEncode(out, b, L.Get(i), 0)
		}
		v.reserve(L, len(b)) // the Lua string is a copy
		L.Push(lua.LString(b))
		return 1
	}))
	t.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int { return mpUnpack(L, v, 0, 0) }))
	t.RawSetString("unpack_one", L.NewFunction(func(L *lua.LState) int {
		return mpUnpack(L, v, 1, L.OptInt(2, 0))
	}))
	t.RawSetString("unpack_limit", L.NewFunction(func(L *lua.LState) int {
		return mpUnpack(L, v, L.CheckInt(2), L.OptInt(3, 0))
	}))
	return t
}

// mpUnpack is lua-cmsgpack's mp_unpack_full: up to limit values of the
// string argument from byte offset; with neither a limit nor an offset
// (unpack) every value, else the next offset first (-1 once the string
// is used up: unpack_one, unpack_limit).
func mpUnpack(L *lua.LState, v *vm, limit, offset int) int {
	s := L.CheckString(1)
	all := limit == 0 && offset == 0
	switch {
	case offset < 0 || limit < 0: // sic: lua-cmsgpack prints the length as the limit
		L.RaiseError("Invalid request to unpack with offset of %d and limit of %d.", offset, len(s))
	case offset > len(s):
		L.RaiseError("Start offset %d greater than input length %d.", offset, len(s))
	}
	d := &mpDecoder{L: L, s: s, pos: offset, out: outBound{L: L, v: v}}
	var vals []lua.LValue
	for d.pos < len(d.s) && (all || len(vals) < limit) {
		vals = append(vals, d.value(0))
	}
	if !all {
		next := d.pos
		if next == len(s) {
			next = -1 // nothing more to decode
		}
		L.Push(lua.LNumber(next))
	}
	for _, x := range vals {
		L.Push(x)
	}
	if all {
		return len(vals)
	}
	return len(vals) + 1
}

func mpEncode(out *outBound, b []byte, v lua.LValue, depth int) []byte {
	if _, table := v.(*lua.LTable); table && depth >= 16 {
		return append(b, 0xc0) // lua-cmsgpack encodes a table 16 levels down as nil
	}
	// Every value is counted, not only strings: a table shared at each of
	// 16 levels (or a cyclic one) repeats its numbers and headers
	// billions of times, and the watchdog cannot stop a Go function.
	out.grow(len(b) + 9)
	switch x := v.(type) {
	case lua.LBool:
		if x {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case lua.LNumber:
		f := float64(x)
		if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			return mpInt(b, int64(f))
		}
		if float64(float32(f)) == f {
			return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(float32(f)))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
	case lua.LString:
		n := len(x)
		out.grow(len(b) + 5 + n)
		switch {
		case n < 32:
			b = append(b, 0xa0|byte(n))
		case n <= 0xff:
			b = append(b, 0xd9, byte(n))
		case n <= 0xffff:
			b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
		default:
			b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
		}
		return append(b, x...)
	case *lua.LTable:
		n := x.Len()
		count := 0
		eachPair(x, func(lua.LValue, lua.LValue) { count++ })
		if n > 0 && n == count {
			b = mpHeader(b, n, 0x90, 0xdc, 0xdd)
			for i := 1; i <= n; i++ {
				b = mpEncode(out, b, x.RawGetInt(i), depth+1)
			}
			return b
		}
		b = mpHeader(b, count, 0x80, 0xde, 0xdf)
		eachPair(x, func(k, v lua.LValue) {
			b = mpEncode(out, b, k, depth+1)
			b = mpEncode(out, b, v, depth+1)
		})
		return b
	}
	return append(b, 0xc0)
}

func mpHeader(b []byte, n int, fix, b16, b32 byte) []byte {
	switch {
	case n < 16:
		return append(b, fix|byte(n))
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(b, b16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, b32), uint32(n))
}

func mpInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= 127:
		return append(b, byte(n))
	case n >= 0 && n <= 0xff:
		return append(b, 0xcc, byte(n))
	case n >= 0 && n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(n))
	case n >= 0 && n <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
	case n >= 0:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	case n >= -32:
		return append(b, byte(int8(n)))
	case n >= math.MinInt8:
		return append(b, 0xd0, byte(int8(n)))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(int16(n)))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(int32(n)))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}

// mpDecoder is one cmsgpack.unpack: the tables it makes are counted
// against the script's memory bound (a 2-byte array header makes a
// table, and the watchdog cannot stop a Go function).
type mpDecoder struct {
	L   *lua.LState
	s   string
	pos int
	out outBound
}

func (d *mpDecoder) take(n int) string {
	if n < 0 || d.pos+n > len(d.s) {
		d.L.RaiseError("Missing bytes in input.")
	}
	s := d.s[d.pos : d.pos+n]
	d.pos += n
	return s
}

func (d *mpDecoder) uint(n int) uint64 {
	var v uint64
	for _, c := range []byte(d.take(n)) {
		v = v<<8 | uint64(c)
	}
	return v
}

func (d *mpDecoder) value(depth int) lua.LValue {
	if depth > 1000 {
		d.L.RaiseError("Bad data format in input.")
	}
	d.out.use(valueCost)
	c := d.take(1)[0]
	switch {
	case c <= 0x7f:
		return lua.LNumber(c)
	case c >= 0xe0:
		return lua.LNumber(int8(c))
	case c&0xe0 == 0xa0:
		return lua.LString(d.take(int(c & 0x1f)))
	case c&0xf0 == 0x90:
		return d.array(int(c&0x0f), depth)
	case c&0xf0 == 0x80:
		return d.mapOf(int(c&0x0f), depth)
	}
	switch c {
	case 0xc0:
		return lua.LNil
	case 0xc2:
		return lua.LFalse
	case 0xc3:
		return lua.LTrue
	case 0xca:
		return lua.LNumber(math.Float32frombits(uint32(d.uint(4))))
	case 0xcb:
		return lua.LNumber(math.Float64frombits(d.uint(8)))
	case 0xcc, 0xcd, 0xce, 0xcf:
		return lua.LNumber(float64(d.uint(1 << (c - 0xcc))))
	case 0xd0:
		return lua.LNumber(int8(d.uint(1)))
	case 0xd1:
		return lua.LNumber(int16(d.uint(2)))
	case 0xd2:
		return lua.LNumber(int32(d.uint(4)))
	case 0xd3:
		return lua.LNumber(float64(int64(d.uint(8))))
	case 0xd9, 0xc4:
		return lua.LString(d.take(int(d.uint(1))))
	case 0xda, 0xc5:
		return lua.LString(d.take(int(d.uint(2))))
	case 0xdb, 0xc6:
		return lua.LString(d.take(int(d.uint(4))))
	case 0xdc:
		return d.array(int(d.uint(2)), depth)
	case 0xdd:
		return d.array(int(d.uint(4)), depth)
	case 0xde:
		return d.mapOf(int(d.uint(2)), depth)
	case 0xdf:
		return d.mapOf(int(d.uint(4)), depth)
	}
	d.L.RaiseError("Bad data format in input.")
	return lua.LNil
}

func (d *mpDecoder) array(n, depth int) lua.LValue {
	if n > len(d.s)-d.pos {
		d.L.RaiseError("Missing bytes in input.")
	}
	d.out.use(tableCost + 16*n)
	t := d.L.CreateTable(n, 0)
	for i := 1; i <= n; i++ {
		t.RawSetInt(i, d.value(depth+1))
	}
	return t
}

func (d *mpDecoder) mapOf(n, depth int) lua.LValue {
	if 2*n > len(d.s)-d.pos {
		d.L.RaiseError("Missing bytes in input.")
	}
	d.out.use(tableCost + entryCost*n)
	t := d.L.CreateTable(0, n)
	for i := 0; i < n; i++ {
		k := d.value(depth + 1)
		v := d.value(depth + 1)
		if k != lua.LNil {
			t.RawSet(k, v)
		}
	}
	return t
}
