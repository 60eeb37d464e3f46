package scripting

import (
	"encoding/binary"
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// The struct library (Roberto Ierusalimschy's, as Redis ships it):
// struct.pack(fmt, ...), struct.unpack(fmt, s [, pos]), struct.size(fmt).
// Formats: > < = ! (endianness, alignment), x (pad), b B h H l L T i[n]
// I[n] (integers), f d (floats), s (zero-terminated), c[n] (fixed).

type structFmt struct {
	fmt      string
	pos      int
	little   bool
	maxAlign int
}

// next returns the next option and its size argument (-1 when absent).
func (f *structFmt) next() (byte, int) {
	for f.pos < len(f.fmt) {
		c := f.fmt[f.pos]
		f.pos++
		if c == ' ' {
			continue
		}
		start := f.pos
		for f.pos < len(f.fmt) && f.fmt[f.pos] >= '0' && f.fmt[f.pos] <= '9' {
			f.pos++
		}
		n := -1
		if f.pos > start {
			n, _ = strconv.Atoi(f.fmt[start:f.pos])
		}
		return c, n
	}
	return 0, 0
}

// size returns the byte size of an option; -1 for variable ones.
func optSize(L *lua.LState, c byte, n int) int {
	switch c {
	case 'x', 'b', 'B':
		return 1
	case 'h', 'H':
		return 2
	case 'l', 'L', 'T', 'd':
		return 8
	case 'f':
		return 4
	case 'i', 'I':
		if n < 0 {
			return 4
		}
		if n < 1 || n > 8 {
			L.RaiseError("integral size %d is larger than limit of 8", n)
		}
		return n
	case 'c':
		return max(n, 1)
	case 's':
		return -1
	}
	L.RaiseError("invalid format option '%c'", c)
	return 0
}

func (f *structFmt) control(L *lua.LState, c byte, n int) bool {
	switch c {
	case '>':
		f.little = false
	case '<', '=':
		f.little = c != '>'
	case '!':
		if n < 0 {
			n = 8
		}
		f.maxAlign = n
	default:
		return false
	}
	return true
}

func (f *structFmt) align(size, at int) int {
	a := min(size, f.maxAlign)
	if a <= 1 || size <= 0 {
		return 0
	}
	return (a - at%a) % a
}

func putInt(b []byte, v uint64, little bool) {
	for i := range b {
		shift := uint(i) * 8
		if !little {
			shift = uint(len(b)-1-i) * 8
		}
		b[i] = byte(v >> shift)
	}
}

func getInt(b []byte, little, signed bool) float64 {
	var v uint64
	for i := range b {
		shift := uint(i) * 8
		if !little {
			shift = uint(len(b)-1-i) * 8
		}
		v |= uint64(b[i]) << shift
	}
	if signed && len(b) < 8 && v&(1<<(uint(len(b))*8-1)) != 0 {
		v |= ^uint64(0) << (uint(len(b)) * 8)
	}
	if signed {
		return float64(int64(v))
	}
	return float64(v)
}

func openStruct(L *lua.LState, v *vm) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("pack", L.NewFunction(func(L *lua.LState) int { return structPack(L, &outBound{L: L, v: v}) }))
	t.RawSetString("unpack", L.NewFunction(structUnpack))
	t.RawSetString("size", L.NewFunction(func(L *lua.LState) int {
		f := &structFmt{fmt: L.CheckString(1), maxAlign: 1}
		total := 0
		for {
			c, n := f.next()
			if c == 0 {
				break
			}
			if f.control(L, c, n) {
				continue
			}
			size := optSize(L, c, n)
			if size < 0 {
				L.ArgError(1, "options 'c0' - 's' have undefined sizes")
			}
			total += f.align(size, total) + size
		}
		L.Push(lua.LNumber(total))
		return 1
	}))
	return t
}

func structPack(L *lua.LState, bound *outBound) int {
	f := &structFmt{fmt: L.CheckString(1), maxAlign: 1}
	var out []byte
	arg := 2
	for {
		c, n := f.next()
		if c == 0 {
			break
		}
		if f.control(L, c, n) {
			continue
		}
		size := optSize(L, c, n)
		if size > 0 {
			out = append(out, make([]byte, f.align(size, len(out)))...)
		}
		switch c {
		case 'x':
			out = append(out, 0)
		case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
			v := float64(L.CheckNumber(arg))
			arg++
			b := make([]byte, size)
			putInt(b, uint64(int64(v)), f.little)
			out = append(out, b...)
		case 'f':
			b := make([]byte, 4)
			bits := math.Float32bits(float32(L.CheckNumber(arg)))
			arg++
			putInt(b, uint64(bits), f.little)
			out = append(out, b...)
		case 'd':
			b := make([]byte, 8)
			putInt(b, math.Float64bits(float64(L.CheckNumber(arg))), f.little)
			arg++
			out = append(out, b...)
		case 'c', 's':
			s := L.CheckString(arg)
			arg++
			bound.grow(len(out) + len(s) + 1)
			if c == 's' {
				out = append(append(out, s...), 0)
				continue
			}
			if n < 0 {
				n = 1
			}
			if n == 0 {
				n = len(s)
			}
			if len(s) < n {
				L.ArgError(arg-1, "string too short")
			}
			out = append(out, s[:n]...)
		}
	}
	L.Push(lua.LString(out))
	return 1
}

func structUnpack(L *lua.LState) int {
	f := &structFmt{fmt: L.CheckString(1), maxAlign: 1}
	data := L.CheckString(2)
	pos := L.OptInt(3, 1) - 1
	if pos < 0 || pos > len(data) {
		L.ArgError(3, "offset must be 1 or greater")
	}
	pushed := 0
	lastNum := -1
	for {
		c, n := f.next()
		if c == 0 {
			break
		}
		if f.control(L, c, n) {
			continue
		}
		size := optSize(L, c, n)
		if size > 0 {
			pos += f.align(size, pos)
		}
		need := size
		if c == 'c' && n == 0 {
			if lastNum < 0 {
				L.RaiseError("format 'c0' needs a previous size")
			}
			need = lastNum
		}
		if need > 0 && pos+need > len(data) {
			L.ArgError(2, "data string too short")
		}
		switch c {
		case 'x':
		case 'b', 'h', 'l', 'i':
			v := getInt([]byte(data[pos:pos+size]), f.little, true)
			L.Push(lua.LNumber(v))
			lastNum, pushed = int(v), pushed+1
		case 'B', 'H', 'L', 'T', 'I':
			v := getInt([]byte(data[pos:pos+size]), f.little, false)
			L.Push(lua.LNumber(v))
			lastNum, pushed = int(v), pushed+1
		case 'f':
			bits := uint32(getInt([]byte(data[pos:pos+4]), f.little, false))
			L.Push(lua.LNumber(math.Float32frombits(bits)))
			pushed++
		case 'd':
			b := []byte(data[pos : pos+8])
			var bits uint64
			if f.little {
				bits = binary.LittleEndian.Uint64(b)
			} else {
				bits = binary.BigEndian.Uint64(b)
			}
			L.Push(lua.LNumber(math.Float64frombits(bits)))
			pushed++
		case 'c':
			L.Push(lua.LString(data[pos : pos+need]))
			pushed++
			size = need
		case 's':
			end := pos
			for end < len(data) && data[end] != 0 {
				end++
			}
			if end >= len(data) {
				L.ArgError(2, "unfinished string in data")
			}
			L.Push(lua.LString(data[pos:end]))
			pushed++
			size = end - pos + 1
		}
		pos += size
	}
	L.Push(lua.LNumber(pos + 1))
	return pushed + 1
}
