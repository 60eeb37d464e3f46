package scripting

import (
	"math"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Memory bound.
//
// gopher-lua allocates from Go's heap and has no allocator hook, so a
// script's memory is bounded from outside, by the process's heap.
//
// Single allocations: the library functions that make big strings at once
// (string.rep of 2^30, cjson.encode of a table of big strings,
// table.concat of many references to one big string) ask reserve first,
// which refuses any one allocation past Options.MaxMemory: one such call
// would otherwise end the process before anything could stop it. The
// encoders (cjson.encode, cmsgpack.pack, struct.pack) count every value
// they write and the decoders (cjson.decode, cmsgpack.unpack) every table
// and value they make (use), asking reserve each reserveFree: the
// watchdog cancels the script's context, which a Go function does not
// look at, and a shared or cyclic table encodes to 2^depth values, a
// decoded "[]," to a 112-byte table.
//
// Growth: once a script has run for watchAfter, its watchdog collects
// garbage once and takes the live heap then as the script's baseline,
// then samples the heap every watchEvery (reserve samples it too). The
// heap counts garbage (other clients', the script's own), so a sample
// past the baseline plus the bound is only a suspicion: the meter
// collects again (at most every gcEvery) and stops the script only when
// the live heap has grown past the bound since the baseline, with the
// error Redis gives a script over lua_max_memory. The baseline includes
// what the script held at watchAfter, so it may pass the bound by that
// much; the figure is the whole process's, so the bound is generous by
// design: it stops runaway scripts before they take the server down,
// without stopping a well-behaved script because of other clients'
// garbage or growth from before it started. A script of less than
// watchAfter never pays for a collection.

const (
	watchAfter = 50 * time.Millisecond
	watchEvery = 10 * time.Millisecond
	gcEvery    = 50 * time.Millisecond
)

func readUint64(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// heapBytes is the heap's objects, garbage included.
func heapBytes() uint64 { return readUint64("/memory/classes/heap/objects:bytes") }

// liveBytes is the heap marked live by the last collection.
func liveBytes() uint64 { return readUint64("/gc/heap/live:bytes") }

// meter is a running script's memory account.
type meter struct {
	mu     sync.Mutex
	based  bool      // base is set (the watchdog's first collection)
	base   uint64    // the live heap at the watchdog's first collection
	ref    uint64    // heap samples are compared with ref plus the bound
	lastGC time.Time // the meter's last collection
}

// setBase collects garbage and takes the live heap as the baseline.
func (m *meter) setBase() {
	m.mu.Lock()
	defer m.mu.Unlock()
	runtime.GC()
	m.base, m.ref, m.based, m.lastGC = liveBytes(), heapBytes(), true, time.Now()
}

// over reports whether the script has grown the live heap past max with
// n more bytes since the baseline, collecting garbage first to be sure.
// Before the baseline it says no.
func (m *meter) over(max, n uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.based {
		return false
	}
	if h := heapBytes(); h <= m.ref || h-m.ref+n <= max {
		return false
	}
	if time.Since(m.lastGC) < gcEvery {
		return false // looked a moment ago: look again at the next sample
	}
	runtime.GC()
	m.lastGC = time.Now()
	live := liveBytes()
	var grown uint64
	if live > m.base {
		grown = live - m.base
	}
	if grown+n > max {
		return true
	}
	// Garbage, not the script: its growth so far is grown.
	h := heapBytes()
	m.ref = h - min(grown, h)
	return false
}

// watch starts the memory watchdog of a running script; stop ends it.
func (s *Scripts) watch(r *running) (stop func()) {
	if s.maxMemory == 0 {
		return func() {}
	}
	done := make(chan struct{})
	timer := time.AfterFunc(watchAfter, func() {
		select {
		case <-done:
			return
		default:
		}
		r.mem.setBase()
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if r.mem.over(s.maxMemory, 0) {
					r.oom.Store(true)
					r.cancel()
					return
				}
			}
		}
	})
	return func() {
		timer.Stop()
		close(done)
	}
}

// reserve raises Lua's "not enough memory" in L unless n more bytes fit
// the running script's memory bound; the script then ends with the same
// error as one the watchdog stops. It also ends a script whose context
// is cancelled, bound or not, so a long encoder or decoder call stops on
// SCRIPT KILL. Without a bound (MaxMemory 0) every allocation is let
// through, as before. Outside a run (a library's load) only n itself is
// bounded.
func (v *vm) reserve(L *lua.LState, n int) {
	if n < reserveFree {
		return
	}
	if ctx := L.Context(); ctx != nil && ctx.Err() != nil {
		// Killed (SCRIPT KILL, the memory watchdog): a Go library call
		// does not look at the context, so its next reservation ends it.
		L.RaiseError("%s", ctx.Err().Error())
	}
	if v.maxMemory == 0 {
		return
	}
	r := v.run
	var state *running
	if r != nil {
		state = r.state
	}
	switch {
	case n < 0 || uint64(n) > v.maxMemory:
	case state == nil || !state.mem.over(v.maxMemory, uint64(n)):
		return
	}
	if state != nil {
		state.oom.Store(true)
		state.cancel()
	}
	L.RaiseError("not enough memory")
}

// reserveFree: allocations below it are not checked (a heap sample costs
// about a microsecond; small strings cannot outrun the watchdog).
const reserveFree = 64 << 10

// outBound bounds one library call's growing output buffer by reserve,
// checked each time the output may have grown by reserveFree.
type outBound struct {
	L       *lua.LState
	v       *vm
	checked int // the output length reserve last allowed
	used    int // use's count of bytes allocated so far
}

// grow reserves room for the output to reach n bytes (the buffer's next
// allocation may be twice that).
func (o *outBound) grow(n int) {
	if n > o.checked {
		o.v.reserve(o.L, 2*n)
		o.checked = n + reserveFree
	}
}

// use counts n more bytes a library call allocates apart from one buffer
// (a decoder's tables and values, estimated with the costs below) and
// asks reserve for the next reserveFree each time the count passes the
// last check: what was allocated so far is in the heap reserve samples.
func (o *outBound) use(n int) {
	o.used += n
	if o.used > o.checked {
		o.v.reserve(o.L, reserveFree+n)
		o.checked = o.used + reserveFree
	}
}

// What a decoder's values cost on Go's heap, about (gopher-lua, measured):
// an empty table made by CreateTable(0, 0) 112 bytes, an array slot or a
// boxed number 16 each, a hash entry about 150.
const (
	tableCost = 112
	valueCost = 32
	entryCost = 150
)

// boundAllocations replaces the two standard library functions whose
// output is a multiple of their input, string.rep and table.concat, by
// versions that reserve their result first. Both follow Lua 5.1 as Redis
// ships it: string.rep's count is a C int (2^40 is 0, 2^31 negative: "");
// table.concat refuses a non-string at any index from i to j (gopher-lua
// clamps j to the table's length).
func boundAllocations(L *lua.LState, v *vm, g *lua.LTable) {
	str := g.RawGetString("string").(*lua.LTable)
	str.RawSetString("rep", L.NewFunction(func(L *lua.LState) int {
		if L.GetTop() == 0 {
			L.ArgError(1, "string expected, got no value")
		}
		s := L.CheckString(1)
		n := int(int32(int64(L.CheckNumber(2))))
		if n <= 0 || len(s) == 0 {
			L.Push(lua.LString(""))
			return 1
		}
		if len(s) > math.MaxInt/n {
			L.RaiseError("not enough memory")
		}
		v.reserve(L, len(s)*n)
		L.Push(lua.LString(strings.Repeat(s, n)))
		return 1
	}))
	tbl := g.RawGetString("table").(*lua.LTable)
	tbl.RawSetString("concat", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		sep := L.OptString(2, "")
		i := int(int32(int64(L.OptNumber(3, 1))))
		j := int(int32(int64(L.OptNumber(4, lua.LNumber(t.Len())))))
		size := 0
		for k := i; k <= j; k++ {
			x := t.RawGetInt(k)
			if !lua.LVCanConvToString(x) {
				L.RaiseError("invalid value (%s) at index %d in table for 'concat'", x.Type().String(), k)
			}
			size += len(lua.LVAsString(x))
			if k < j {
				size += len(sep)
			}
			if size > math.MaxInt32 {
				L.RaiseError("not enough memory")
			}
		}
		v.reserve(L, size)
		b := make([]byte, 0, size)
		for k := i; k <= j; k++ {
			b = append(b, lua.LVAsString(t.RawGetInt(k))...)
			if k < j {
				b = append(b, sep...)
			}
		}
		L.Push(lua.LString(b))
		return 1
	}))
}

// boundStack replaces unpack and string.format by versions with Lua 5.1's
// limits: unpack refuses more results than Lua's C stack holds (8,000
// slots, the call's arguments included), and a format's flags, width and
// precision are checked as Lua's scanformat checks them (at most 5 flags,
// 2 digits each) before gopher-lua formats it: an unchecked width of
// 99999999 would be one allocation of that size. The output's size is
// reserved first too: string.format(string.rep('%s', 7000), s, s, ...)
// is thousands of times its arguments.
func boundStack(L *lua.LState, v *vm, g *lua.LTable) {
	g.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		i := int64(int32(int64(L.OptNumber(2, 1))))
		e := int64(int32(int64(L.OptNumber(3, lua.LNumber(t.Len())))))
		if i > e {
			return 0
		}
		n := e - i + 1
		if n > math.MaxInt32 || int(n)+L.GetTop() > luaMaxCStack {
			L.RaiseError("too many results to unpack")
		}
		for k := i; k <= e; k++ {
			L.Push(t.RawGetInt(int(k)))
		}
		return int(n)
	}))
	str := g.RawGetString("string").(*lua.LTable)
	format := str.RawGetString("format").(*lua.LFunction).GFunction
	str.RawSetString("format", L.NewFunction(func(L *lua.LState) int {
		f := L.CheckString(1)
		arg := 1
		size := len(f)
		for p := 0; p < len(f); p++ {
			if f[p] != '%' {
				continue
			}
			if p++; p < len(f) && f[p] == '%' {
				continue
			}
			arg++
			start := p
			for p < len(f) && strings.IndexByte("-+ #0", f[p]) >= 0 {
				p++
			}
			if p-start >= 6 {
				L.RaiseError("invalid format (repeated flags)")
			}
			p = skipDigits(f, p)
			if p < len(f) && f[p] == '.' {
				p = skipDigits(f, p+1)
			}
			if p < len(f) && isDigit(f[p]) {
				L.RaiseError("invalid format (width or precision too long)")
			}
			if p >= len(f) || strings.IndexByte("cdiouxXeEfgGqs", f[p]) < 0 {
				c := ""
				if p < len(f) {
					c = f[p : p+1]
				}
				L.RaiseError("invalid option '%%%s' to 'format'", c)
			}
			if arg > L.GetTop() {
				L.ArgError(arg, "no value")
			}
			// At most 99 of width or precision and a number's digits;
			// %q writes a byte as at most 4 ("\000").
			size += 128
			if x := L.Get(arg); f[p] == 's' || f[p] == 'q' {
				if !lua.LVCanConvToString(x) {
					// Lua 5.1 takes a string or a number, not __tostring.
					L.ArgError(arg, "string expected, got "+x.Type().String())
				}
				n := len(lua.LVAsString(x))
				if f[p] == 'q' {
					n *= 4
				}
				size += n
			}
		}
		v.reserve(L, size)
		return format(L)
	}))
	byteOf := str.RawGetString("byte").(*lua.LFunction).GFunction
	str.RawSetString("byte", L.NewFunction(func(L *lua.LState) int {
		// Lua 5.1's str_byte checks the stack for its results first.
		n := float64(len(L.CheckString(1)))
		i := strPos(math.Trunc(float64(L.OptNumber(2, 1))), n)
		j := strPos(math.Trunc(float64(L.OptNumber(3, lua.LNumber(i)))), n)
		i, j = max(i, 1), min(j, n)
		if j-i+1 > float64(luaMaxCStack-L.GetTop()) {
			L.RaiseError("stack overflow (string slice too long)")
		}
		return byteOf(L)
	}))
}

// strPos is Lua 5.1's posrelat: a negative position counts from the end.
func strPos(pos, n float64) float64 {
	if pos < 0 {
		pos += n + 1
	}
	return pos
}

// skipDigits skips at most two digits of f from p.
func skipDigits(f string, p int) int {
	for n := 0; n < 2 && p < len(f) && isDigit(f[p]); n++ {
		p++
	}
	return p
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
