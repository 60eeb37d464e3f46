package scripting

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// openStringDump gives string.dump back (gopher-lua's raises "GopherLua
// does not support the string.dump"). It writes a Lua function as a
// binary chunk in Lua 5.1's layout (ldump.c: the header of a 64-bit
// little-endian build, then the function, its constants, nested
// functions and debug information), with gopher-lua's instructions in
// place of Lua 5.1's.
//
// Such a chunk loads nowhere, as in Redis: its Lua parses every chunk as
// text (no undump), so loadstring answers nil and a syntax error and
// `loadstring(string.dump(f))()` fails with "attempt to call a nil
// value", the behaviour scripts written for Redis meet. A Go function
// cannot be dumped ("unable to dump given function", Lua 5.1's text).
func openStringDump(L *lua.LState, g *lua.LTable) {
	str := g.RawGetString("string").(*lua.LTable)
	str.RawSetString("dump", L.NewFunction(func(L *lua.LState) int {
		if L.GetTop() == 0 {
			L.ArgError(1, "function expected, got no value")
		}
		fn := L.CheckFunction(1)
		if fn.IsG || fn.Proto == nil {
			L.RaiseError("unable to dump given function")
		}
		d := dumper{b: []byte{0x1b, 'L', 'u', 'a', 0x51, 0, 1, 4, 8, 4, 8, 0}}
		d.function(fn.Proto, "")
		L.Push(lua.LString(d.b))
		return 1
	}))
}

// dumper appends a chunk's parts as ldump.c does: ints of 4 bytes,
// size_t of 8, numbers as IEEE doubles, all little-endian.
type dumper struct{ b []byte }

func (d *dumper) int(n int) { d.b = binary.LittleEndian.AppendUint32(d.b, uint32(int32(n))) }

// string writes a length counting the terminating NUL, then the bytes
// and the NUL; an absent string (a nested function's source, the same as
// its parent's) is the length 0.
func (d *dumper) string(s string, present bool) {
	if !present {
		d.b = binary.LittleEndian.AppendUint64(d.b, 0)
		return
	}
	d.b = binary.LittleEndian.AppendUint64(d.b, uint64(len(s)+1))
	d.b = append(d.b, s...)
	d.b = append(d.b, 0)
}

func (d *dumper) function(p *lua.FunctionProto, parent string) {
	d.string(p.SourceName, p.SourceName != parent)
	d.int(p.LineDefined)
	d.int(p.LastLineDefined)
	d.b = append(d.b, p.NumUpvalues, p.NumParameters, p.IsVarArg, p.NumUsedRegisters)
	d.int(len(p.Code))
	for _, ins := range p.Code {
		d.b = binary.LittleEndian.AppendUint32(d.b, ins)
	}
	d.int(len(p.Constants))
	for _, k := range p.Constants {
		switch k := k.(type) {
		case lua.LBool:
			d.b = append(d.b, 1, 0)
			if k {
				d.b[len(d.b)-1] = 1
			}
		case lua.LNumber:
			d.b = append(d.b, 3)
			d.b = binary.LittleEndian.AppendUint64(d.b, math.Float64bits(float64(k)))
		case lua.LString:
			d.b = append(d.b, 4)
			d.string(string(k), true)
		default: // nil
			d.b = append(d.b, 0)
		}
	}
	d.int(len(p.FunctionPrototypes))
	for _, f := range p.FunctionPrototypes {
		d.function(f, p.SourceName)
	}
	d.int(len(p.DbgSourcePositions))
	for _, line := range p.DbgSourcePositions {
		d.int(line)
	}
	d.int(len(p.DbgLocals))
	for _, l := range p.DbgLocals {
		d.string(l.Name, true)
		d.int(l.StartPc)
		d.int(l.EndPc)
	}
	d.int(len(p.DbgUpvalues))
	for _, name := range p.DbgUpvalues {
		d.string(name, true)
	}
}
