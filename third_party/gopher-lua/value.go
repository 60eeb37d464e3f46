package lua

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
)

type LValueType int

const (
	LTNil LValueType = iota
	LTBool
	LTNumber
	LTString
	LTFunction
	LTUserData
	LTThread
	LTTable
	LTChannel
)

var lValueNames = [9]string{"nil", "boolean", "number", "string", "function", "userdata", "thread", "table", "channel"}

func (vt LValueType) String() string {
	return lValueNames[int(vt)]
}

type LValue interface {
	String() string
	Type() LValueType
}

// LVIsFalse returns true if a given LValue is a nil or false otherwise false.
func LVIsFalse(v LValue) bool { return v == LNil || v == LFalse }

// LVIsFalse returns false if a given LValue is a nil or false otherwise true.
func LVAsBool(v LValue) bool { return v != LNil && v != LFalse }

// LVAsString returns string representation of a given LValue
// if the LValue is a string or number, otherwise an empty string.
func LVAsString(v LValue) string {
	switch sn := v.(type) {
	case LString, LNumber:
		return sn.String()
	default:
		return ""
	}
}

// LVCanConvToString returns true if a given LValue is a string or number
// otherwise false.
func LVCanConvToString(v LValue) bool {
	switch v.(type) {
	case LString, LNumber:
		return true
	default:
		return false
	}
}

// LVAsNumber tries to convert a given LValue to a number.
func LVAsNumber(v LValue) LNumber {
	switch lv := v.(type) {
	case LNumber:
		return lv
	case LString:
		if num, err := parseNumber(string(lv)); err == nil {
			return num
		}
	}
	return LNumber(0)
}

type LNilType struct{}

func (nl *LNilType) String() string   { return "nil" }
func (nl *LNilType) Type() LValueType { return LTNil }

var LNil = LValue(&LNilType{})

type LBool bool

func (bl LBool) String() string {
	if bool(bl) {
		return "true"
	}
	return "false"
}
func (bl LBool) Type() LValueType { return LTBool }

var LTrue = LBool(true)
var LFalse = LBool(false)

type LString string

func (st LString) String() string   { return string(st) }
func (st LString) Type() LValueType { return LTString }

// fmt.Formatter interface
func (st LString) Format(f fmt.State, c rune) {
	switch c {
	case 'q': // Lua 5.1's addquoted (rekv; upstream quoted as Go does)
		b := []byte{'"'}
		for i := 0; i < len(st); i++ {
			switch ch := st[i]; ch {
			case '"', '\\', '\n':
				b = append(b, '\\', ch)
			case '\r':
				b = append(b, '\\', 'r')
			case 0:
				b = append(b, '\\', '0', '0', '0')
			default:
				b = append(b, ch)
			}
		}
		f.Write(append(b, '"'))
	case 'd', 'i':
		if nm, err := parseNumber(string(st)); err != nil {
			defaultFormat(nm, f, 'd')
		} else {
			defaultFormat(string(st), f, 's')
		}
	default:
		defaultFormat(string(st), f, c)
	}
}

func (nm LNumber) String() string {
	return formatNumber(float64(nm))
}

// formatNumber is Lua 5.1's LUAI_NUMFFORMAT, C's "%.14g" (rekv's change:
// upstream prints Go's shortest form, "1000000000000000" for 1e15 and 17
// digits for 1/3, where Lua and Redis print "1e+15" and 14 digits).
func formatNumber(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case f == math.Trunc(f) && math.Abs(f) < 1e14:
		return strconv.FormatInt(int64(f), 10) // what %.14g prints for these, faster
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

func (nm LNumber) Type() LValueType { return LTNumber }

// fmt.Formatter interface
func (nm LNumber) Format(f fmt.State, c rune) {
	switch c {
	case 'q', 's':
		defaultFormat(nm.String(), f, c)
	case 'b', 'c', 'd', 'o', 'x', 'X', 'U':
		defaultFormat(int64(nm), f, c)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		defaultFormat(float64(nm), f, c)
	case 'i':
		defaultFormat(int64(nm), f, 'd')
	default:
		if isInteger(nm) {
			defaultFormat(int64(nm), f, c)
		} else {
			defaultFormat(float64(nm), f, c)
		}
	}
}

type LTable struct {
	Metatable LValue

	// readonly (rekv's patch, README.rekv.md): Lua code may not change
	// the table (SetReadOnly).
	readonly bool

	array   []LValue
	dict    map[LValue]LValue
	strdict map[string]LValue
	keys    []LValue
	k2i     map[LValue]int
}

func (tb *LTable) String() string { return fmt.Sprintf("table: %p", tb) }

// SetReadOnly makes the table read-only for Lua code (or writable again),
// as Redis 7's patched Lua 5.1 does (lua_enablereadonlytable): an
// assignment, rawset, table.insert, table.remove, table.sort or
// setmetatable on it then raises "Attempt to modify a readonly table".
// Go code may still write it (RawSet*, SetMetatable).
func (tb *LTable) SetReadOnly(on bool) { tb.readonly = on }

// ReadOnly reports whether the table is read-only for Lua code.
func (tb *LTable) ReadOnly() bool { return tb.readonly }

// errReadOnly is Redis's wording for a write to a read-only table.
const errReadOnly = "Attempt to modify a readonly table"

// checkWritable raises errReadOnly when tb is read-only: with the Lua
// caller's position at level 1 (an assignment in a script), without one at
// level 0 (a library function, as Lua raises from C).
func (ls *LState) checkWritable(tb *LTable, level int) {
	if tb.readonly {
		ls.raiseError(level, errReadOnly)
	}
}
func (tb *LTable) Type() LValueType { return LTTable }

type LFunction struct {
	IsG       bool
	Env       *LTable
	Proto     *FunctionProto
	GFunction LGFunction
	Upvalues  []*Upvalue
}
type LGFunction func(*LState) int

func (fn *LFunction) String() string   { return fmt.Sprintf("function: %p", fn) }
func (fn *LFunction) Type() LValueType { return LTFunction }

type Global struct {
	MainThread    *LState
	CurrentThread *LState
	Registry      *LTable
	Global        *LTable

	builtinMts map[int]LValue
	tempFiles  []*os.File
	gccount    int32
}

type LState struct {
	G       *Global
	Parent  *LState
	Env     *LTable
	Panic   func(*LState)
	Dead    bool
	Options Options
	// AllocHook (rekv), when set, is called before the VM's concatenation
	// or string.gsub builds a string of n bytes, and as string.gsub and
	// string.gmatch find matches (n: their memory), n at least AllocHookMin:
	// it may raise an error to refuse it. One such string can be many
	// times the memory the script held a moment before (s = s .. s, a
	// gsub with a long replacement), more than a watchdog looking
	// between instructions can stop.
	AllocHook func(L *LState, n int)

	stop         int32
	reg          *registry
	stack        callFrameStack
	alloc        *allocator
	currentFrame *callFrame
	wrapped      bool
	uvcache      *Upvalue
	hasErrorFunc bool
	mainLoop     func(*LState, *callFrame)
	ctx          context.Context
	ctxCancelFn  context.CancelFunc
}

// AllocHookMin is the smallest string AllocHook is asked about (rekv).
const AllocHookMin = 64 << 10

// checkAlloc asks AllocHook about a string of n bytes (rekv).
func (ls *LState) checkAlloc(n int) {
	if n >= AllocHookMin && ls.AllocHook != nil {
		ls.AllocHook(ls, n)
	}
}

// checkMatches stops a pattern search whose script's context is done (as
// the VM loop does between instructions), and asks AllocHook about the
// memory of its n matches, about 96 bytes each (rekv).
func (ls *LState) checkMatches(n int) {
	if ls.ctx != nil && ls.ctx.Err() != nil {
		ls.RaiseError(ls.ctx.Err().Error())
	}
	ls.checkAlloc(96 * n)
}

func (ls *LState) String() string   { return fmt.Sprintf("thread: %p", ls) }
func (ls *LState) Type() LValueType { return LTThread }

type LUserData struct {
	Value     interface{}
	Env       *LTable
	Metatable LValue
}

func (ud *LUserData) String() string   { return fmt.Sprintf("userdata: %p", ud) }
func (ud *LUserData) Type() LValueType { return LTUserData }

type LChannel chan LValue

func (ch LChannel) String() string   { return fmt.Sprintf("channel: %p", ch) }
func (ch LChannel) Type() LValueType { return LTChannel }
