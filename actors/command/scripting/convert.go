package scripting

import (
	"fmt"
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/resp"
)

// toLua converts a command's reply (written in the script's RESP version)
// to the Lua value redis.call returns, as Redis 7.0 does. An error reply
// becomes {err=...}; the caller decides whether to raise it.
func toLua(L *lua.LState, r resp.Reply) lua.LValue {
	switch r.Kind {
	case ':':
		return lua.LNumber(r.Int)
	case '$':
		if r.Null {
			return lua.LFalse
		}
		return lua.LString(r.Str)
	case '+':
		t := L.CreateTable(0, 1)
		t.RawSetString("ok", lua.LString(r.Str))
		return t
	case '-':
		return flagged(L, "-"+string(r.Str))
	case '*', '>':
		if r.Null {
			return lua.LFalse
		}
		t := L.CreateTable(len(r.Elems), 0)
		for i, e := range r.Elems {
			t.RawSetInt(i+1, toLua(L, e))
		}
		return t
	case '%':
		m := L.CreateTable(0, len(r.Elems)/2)
		for i := 0; i+1 < len(r.Elems); i += 2 {
			m.RawSet(toLua(L, r.Elems[i]), toLua(L, r.Elems[i+1]))
		}
		t := L.CreateTable(0, 1)
		t.RawSetString("map", m)
		return t
	case '~':
		m := L.CreateTable(0, len(r.Elems))
		for _, e := range r.Elems {
			m.RawSet(toLua(L, e), lua.LTrue)
		}
		t := L.CreateTable(0, 1)
		t.RawSetString("set", m)
		return t
	case '_':
		return lua.LNil
	case '#':
		return lua.LBool(r.Bool)
	case ',':
		f, _ := strconv.ParseFloat(string(r.Str), 64)
		if string(r.Str) == "inf" {
			f = math.Inf(1)
		} else if string(r.Str) == "-inf" {
			f = math.Inf(-1)
		}
		t := L.CreateTable(0, 1)
		t.RawSetString("double", lua.LNumber(f))
		return t
	case '(':
		t := L.CreateTable(0, 1)
		t.RawSetString("big_number", lua.LString(r.Str))
		return t
	case '=':
		v := L.CreateTable(0, 2)
		v.RawSetString("format", lua.LString("txt"))
		v.RawSetString("string", lua.LString(r.Str))
		t := L.CreateTable(0, 1)
		t.RawSetString("verbatim_string", v)
		return t
	}
	return lua.LNil
}

// Lua stack accounting of Redis 7.0's luaReplyToRedisReply, which recurses
// on the Lua stack and answers "reached lua stack limit" in place of any
// value it reaches when fewer than 4 slots are left (LUAI_MAXCSTACK 8000).
// The conversion here recurses on the Go stack instead, and counts the
// slots Redis's would hold, so that a nested or cyclic table ends exactly
// where Redis's does: a script's result cannot drive the recursion deeper.
const (
	luaMaxCStack   = 8000 // LUAI_MAXCSTACK
	replyBaseStack = 2    // slots in use when the conversion starts
	arraySlots     = 1    // an array element: its value
	mapKeySlots    = 4    // a map key: the map, key, value and the key's copy
	mapValueSlots  = 3    // a map value: the map, key and value
	setSlots       = 3    // a set member: the set, key and the key's copy
)

// errStackLimit is Redis's reply for a value past the Lua stack limit.
const errStackLimit = "ERR reached lua stack limit"

// maxScriptReply is the default bound on the reply a script's result
// converts to. Redis has no bound: a table that holds itself twice
// (t[1] = t; t[2] = t) makes it write 2^8000 values until it runs out of
// memory. Here the conversion stops past the bound and the whole reply
// becomes an error.
const maxScriptReply = 512 << 20

// replySpill is the size past which the conversion stops writing and only
// counts: a reply that grows past it is measured to its end (or to the
// bound) in a small scratch writer, then, if it fits, written again. A
// table holding itself twice so costs a walk, not 512 MiB of buffer grown
// by copies and an error per leaf kept (it took 25 s, 74 s under the race
// detector, where the walk alone takes a few).
const replySpill = 8 << 20

// writeReply writes a script's Lua result to w (the caller's protocol) as
// Redis 7.0's luaReplyToRedisReply does; scriptResp is the version the
// script chose with redis.setresp (booleans depend on it). A reply past
// limit bytes is replaced by an error. It returns the errors written
// inside the reply (an array holding an error table), which Redis counts
// as it writes them: the script failed, and each error not flagged
// ignore_error_stats_update goes to INFO errorstats.
func writeReply(w *resp.Writer, v lua.LValue, scriptResp, limit int) []nestedError {
	return writeReplySpill(w, v, scriptResp, limit, replySpill)
}

// writeReplySpill is writeReply measuring, not writing, past spill bytes.
func writeReplySpill(w *resp.Writer, v lua.LValue, scriptResp, limit, spill int) []nestedError {
	c := converter{w: w, resp: scriptResp, start: w.Len(), limit: limit, spill: spill}
	c.value(v, replyBaseStack)
	if c.size() > limit { // a last header or number past the bound
		c.over = true
	}
	if c.over {
		w.Truncate(c.start)
		w.Error(fmt.Sprintf("ERR script reply is too large (over %d bytes): is a table nested in itself?", limit))
		return nil
	}
	if c.counting {
		// It fits: write it, all of it this time.
		w.Truncate(c.start)
		c = converter{w: w, resp: scriptResp, start: c.start, limit: limit, spill: math.MaxInt}
		c.value(v, replyBaseStack)
	}
	return c.nested
}

// nestedError is an error written inside a script's reply: its message
// and whether its table was flagged ignore_error_stats_update (already
// counted, by the call that made it).
type nestedError struct {
	msg     string
	flagged bool
}

// converter writes one script result.
type converter struct {
	w     *resp.Writer // where values go: the caller's, or scratch when counting
	resp  int          // the script's redis.setresp version
	start int          // the caller's writer's length before the reply
	limit int          // the most bytes the reply may take
	over  bool         // the reply passed limit: stop writing
	// spill is the size past which values are counted, not kept:
	// counting is then set, w is a scratch writer emptied before each
	// value and counted holds the bytes it took before.
	spill    int
	counting bool
	counted  int
	// nested are the errors written inside the reply.
	nested []nestedError
}

// error writes msg, an error reply, and notes it when it is nested: when
// the reply's start (an aggregate's header) is already written.
func (c *converter) error(msg string, flagged bool) {
	nested := c.size() > 0
	c.w.Error(msg)
	if nested && !c.counting {
		c.nested = append(c.nested, nestedError{msg: msg, flagged: flagged})
	}
}

// size is the number of bytes of the reply so far, written or counted.
func (c *converter) size() int {
	if c.counting {
		return c.counted + c.w.Len()
	}
	return c.w.Len() - c.start
}

// value writes v with slots of Redis's Lua stack in use.
func (c *converter) value(v lua.LValue, slots int) {
	if c.over {
		return
	}
	if c.counting {
		c.counted += c.w.Len()
		c.w.Truncate(0)
	} else if c.size() > c.spill {
		c.counting, c.counted = true, c.size()
		c.w = resp.NewWriter(c.w.Proto())
	}
	// The bound is checked before every value, a string counted before
	// it is written: a table's strings come after its first nested value
	// (depth first), so a cyclic table of big strings writes them once
	// per level on the way back, 7,995 levels deep. Checking only at
	// tables let one such script write 176 GB.
	size := 0
	if x, ok := v.(lua.LString); ok {
		size = len(x)
	}
	if c.size()+size > c.limit {
		c.over = true
		return
	}
	if slots+4 > luaMaxCStack {
		c.error(errStackLimit, false)
		return
	}
	w := c.w
	switch x := v.(type) {
	case lua.LString:
		w.Bulk([]byte(x))
	case lua.LNumber:
		w.Int(luaInt(float64(x)))
	case lua.LBool:
		switch {
		case c.resp == 2 && bool(x):
			w.Int(1)
		case c.resp == 2:
			w.Null()
		default:
			w.Bool(bool(x))
		}
	case *lua.LTable:
		c.table(x, slots)
	default: // nil, functions, userdata...
		w.Null()
	}
}

func (c *converter) table(t *lua.LTable, slots int) {
	w := c.w // value, not table, switches it to a scratch writer
	if e, ok := t.RawGetString("err").(lua.LString); ok {
		c.error(oneLine(string(e)), lua.LVAsBool(t.RawGetString("ignore_error_stats_update")))
		return
	}
	if s, ok := t.RawGetString("ok").(lua.LString); ok {
		w.Simple(oneLine(string(s)))
		return
	}
	if d, ok := t.RawGetString("double").(lua.LNumber); ok {
		w.Double(float64(d))
		return
	}
	if b, ok := t.RawGetString("big_number").(lua.LString); ok {
		w.BigNumber(oneLine(string(b))) // as Redis: a line break would split the reply
		return
	}
	if v, ok := t.RawGetString("verbatim_string").(*lua.LTable); ok {
		f, fok := v.RawGetString("format").(lua.LString)
		s, sok := v.RawGetString("string").(lua.LString)
		if fok && sok {
			w.VerbatimFormat(string(s), string(f))
			return
		}
	}
	if m, ok := t.RawGetString("map").(*lua.LTable); ok {
		var keys, vals []lua.LValue
		eachPair(m, func(k, v lua.LValue) {
			keys, vals = append(keys, k), append(vals, v)
		})
		w.Map(len(keys))
		for i := range keys {
			c.value(keys[i], slots+mapKeySlots)
			c.value(vals[i], slots+mapValueSlots)
		}
		return
	}
	if s, ok := t.RawGetString("set").(*lua.LTable); ok {
		var keys []lua.LValue
		eachPair(s, func(k, _ lua.LValue) { keys = append(keys, k) })
		w.Set(len(keys))
		for _, k := range keys {
			c.value(k, slots+setSlots)
		}
		return
	}
	n := 0
	for t.RawGetInt(n+1) != lua.LNil {
		n++
	}
	w.Array(n)
	for i := 1; i <= n; i++ {
		c.value(t.RawGetInt(i), slots+arraySlots)
	}
}

// luaInt converts a Lua number to a reply integer as C's (long long) cast
// does on amd64: truncation, with out-of-range values (and NaN) giving the
// minimum int64.
func luaInt(f float64) int64 {
	if math.IsNaN(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// oneLine replaces CR and LF with spaces, as Redis does for status and
// error replies built from script strings.
func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\r' || c == '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// eachPair calls fn for each key and value of t in lua_next's order (the
// array part, then the hash keys as first set), as pairs() walks it: the
// same from run to run, where LTable.ForEach walks Go maps in a random
// order (cmsgpack.pack of one table gave different bytes each time).
func eachPair(t *lua.LTable, fn func(k, v lua.LValue)) {
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		fn(k, v)
	}
}
