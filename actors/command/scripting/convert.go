package scripting

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/net/resp"
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
		t := L.NewTable()
		t.RawSetString("ok", lua.LString(r.Str))
		return t
	case '-':
		return errTable(L, "-"+string(r.Str))
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
		t := L.NewTable()
		t.RawSetString("map", m)
		return t
	case '~':
		m := L.CreateTable(0, len(r.Elems))
		for _, e := range r.Elems {
			m.RawSet(toLua(L, e), lua.LTrue)
		}
		t := L.NewTable()
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
		t := L.NewTable()
		t.RawSetString("double", lua.LNumber(f))
		return t
	case '(':
		t := L.NewTable()
		t.RawSetString("big_number", lua.LString(r.Str))
		return t
	case '=':
		v := L.NewTable()
		v.RawSetString("format", lua.LString("txt"))
		v.RawSetString("string", lua.LString(r.Str))
		t := L.NewTable()
		t.RawSetString("verbatim_string", v)
		return t
	}
	return lua.LNil
}

// writeReply writes a script's Lua result to w (the caller's protocol) as
// Redis 7.0's luaReplyToRedisReply does; scriptResp is the version the
// script chose with redis.setresp (booleans depend on it).
func writeReply(w *resp.Writer, v lua.LValue, scriptResp int) {
	switch x := v.(type) {
	case lua.LString:
		w.Bulk([]byte(x))
	case lua.LNumber:
		w.Int(luaInt(float64(x)))
	case lua.LBool:
		switch {
		case scriptResp == 2 && bool(x):
			w.Int(1)
		case scriptResp == 2:
			w.Null()
		default:
			w.Bool(bool(x))
		}
	case *lua.LTable:
		writeTable(w, x, scriptResp)
	default: // nil, functions, userdata...
		w.Null()
	}
}

func writeTable(w *resp.Writer, t *lua.LTable, scriptResp int) {
	if e, ok := t.RawGetString("err").(lua.LString); ok {
		w.Error(oneLine(string(e)))
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
		w.BigNumber(string(b))
		return
	}
	if m, ok := t.RawGetString("map").(*lua.LTable); ok {
		var keys, vals []lua.LValue
		m.ForEach(func(k, v lua.LValue) {
			keys, vals = append(keys, k), append(vals, v)
		})
		w.Map(len(keys))
		for i := range keys {
			writeReply(w, keys[i], scriptResp)
			writeReply(w, vals[i], scriptResp)
		}
		return
	}
	if s, ok := t.RawGetString("set").(*lua.LTable); ok {
		var keys []lua.LValue
		s.ForEach(func(k, _ lua.LValue) { keys = append(keys, k) })
		w.Set(len(keys))
		for _, k := range keys {
			writeReply(w, k, scriptResp)
		}
		return
	}
	n := 0
	for t.RawGetInt(n+1) != lua.LNil {
		n++
	}
	w.Array(n)
	for i := 1; i <= n; i++ {
		writeReply(w, t.RawGetInt(i), scriptResp)
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
