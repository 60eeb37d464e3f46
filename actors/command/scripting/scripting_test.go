package scripting

import (
	"fmt"
	"math"
	"runtime"
	stdstrings "strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/list"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/resp"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(New(Options{Version: "7.2.0", MaxMemory: 64 << 20})), strings.Commands(), keys.Commands(), list.Commands())
}

func TestEvalThroughTheHarness(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"eval \"return redis.call('set', KEYS[1], ARGV[1])\" 1 k v", "+OK\r\n"},
		{"eval \"return redis.call('get', KEYS[1])\" 1 k", "$1\r\nv\r\n"},
		{"eval \"return {1, 2.9, 'x', true, false, nil, 3}\" 0", "*5\r\n:1\r\n:2\r\n$1\r\nx\r\n:1\r\n$-1\r\n"},
		{"eval \"return redis.call('rpush', 'l', 'a', 'b')\" 0", ":2\r\n"},
		{"eval \"return redis.call('lrange', 'l', 0, -1)\" 0", "*2\r\n$1\r\na\r\n$1\r\nb\r\n"},
		{"eval \"return redis.REDIS_VERSION_NUM\" 0", ":459264\r\n"},
		{"eval \"return 1\" -1", "-ERR Number of keys can't be negative\r\n"},
		{"evalsha ffffffffffffffffffffffffffffffffffffffff 0", "-NOSCRIPT No matching script. Please use EVAL.\r\n"},
		{"eval_ro \"return redis.call('del', 'k')\" 0",
			"-ERR Write commands are not allowed from read-only scripts. script: 47b7443a0476c69075e4c3fdb47629aacc40bcfa, on @user_script:1.\r\n"},
	})
	if got := h.Events(); fmt.Sprint(got) != "[new 0 k set 0 k new 0 l rpush 0 l]" {
		t.Errorf("events of the scripts' commands: %q", got)
	}
}

func TestWriteReplyConversions(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	tbl := func(kv ...any) *lua.LTable {
		t := L.NewTable()
		for i := 0; i+1 < len(kv); i += 2 {
			t.RawSetString(kv[i].(string), kv[i+1].(lua.LValue))
		}
		return t
	}
	for _, tc := range []struct {
		v           lua.LValue
		proto, sres int
		want        string
	}{
		{lua.LNumber(3.99), 2, 2, ":3\r\n"},
		{lua.LNumber(-3.99), 2, 2, ":-3\r\n"},
		{lua.LNumber(math.Inf(1)), 2, 2, ":-9223372036854775808\r\n"},
		{lua.LTrue, 2, 2, ":1\r\n"},
		{lua.LFalse, 3, 2, "_\r\n"},
		{lua.LTrue, 3, 3, "#t\r\n"},
		{lua.LTrue, 2, 3, ":1\r\n"},
		{lua.LNil, 2, 2, "$-1\r\n"},
		{tbl("ok", lua.LString("a\r\nb")), 2, 2, "+a  b\r\n"},
		{tbl("err", lua.LString("X y"), "ok", lua.LString("z")), 2, 2, "-X y\r\n"},
		{tbl("double", lua.LNumber(1.5)), 3, 2, ",1.5\r\n"},
		{tbl("double", lua.LNumber(1.5)), 2, 2, "$3\r\n1.5\r\n"},
		{tbl("big_number", lua.LString("123")), 3, 2, "(123\r\n"},
		// unit/scripting "malformed big number protocol parsing"
		{tbl("big_number", lua.LString("123\r\n123")), 3, 2, "(123  123\r\n"},
		{tbl("big_number", lua.LString("123\r\n123")), 2, 2, "$8\r\n123  123\r\n"},
	} {
		for _, spill := range []int{replySpill, 0} { // 0: measured, then written
			w := resp.NewWriter(tc.proto)
			writeReplySpill(w, tc.v, tc.sres, maxScriptReply, spill)
			if got := string(w.Bytes()); got != tc.want {
				t.Errorf("%v (proto %d, setresp %d, spill %d) = %q, want %q", tc.v, tc.proto, tc.sres, spill, got, tc.want)
			}
		}
	}
}

// TestNestedErrors: writeReply reports the errors written inside the
// reply (the script then failed, as Redis counts it), not one that is
// the whole reply (the client's error reply, counted as such).
func TestNestedErrors(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	errT := func(msg string, flagged bool) *lua.LTable {
		t := L.NewTable()
		t.RawSetString("err", lua.LString(msg))
		if flagged {
			t.RawSetString("ignore_error_stats_update", lua.LTrue)
		}
		return t
	}
	arr := func(vs ...lua.LValue) *lua.LTable {
		t := L.NewTable()
		for _, v := range vs {
			t.Append(v)
		}
		return t
	}
	for _, tc := range []struct {
		v    lua.LValue
		want []nestedError
	}{
		{errT("X top", false), nil},
		{arr(lua.LNumber(1), lua.LString("a")), nil},
		{arr(lua.LNumber(1), errT("A b", false), arr(errT("C d", true))), []nestedError{{"A b", false}, {"C d", true}}},
	} {
		for _, spill := range []int{replySpill, 0} {
			w := resp.NewWriter(2)
			if got := writeReplySpill(w, tc.v, 2, maxScriptReply, spill); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%s (spill %d): nested errors %v, want %v", w.Bytes(), spill, got, tc.want)
			}
		}
	}
}

func TestToLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	parse := func(s string) resp.Reply {
		r, _, err := resp.ParseReply([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if v := toLua(L, parse("$-1\r\n")); v != lua.LFalse {
		t.Errorf("null bulk -> %v, want false", v)
	}
	if v := toLua(L, parse("_\r\n")); v != lua.LNil {
		t.Errorf("RESP3 null -> %v, want nil", v)
	}
	if v := toLua(L, parse("+OK\r\n")).(*lua.LTable).RawGetString("ok"); v.String() != "OK" {
		t.Errorf("status -> ok=%v", v)
	}
	if v := toLua(L, parse("-WRONGTYPE x\r\n")).(*lua.LTable).RawGetString("err"); v.String() != "WRONGTYPE x" {
		t.Errorf("error -> err=%v", v)
	}
	m := toLua(L, parse("%1\r\n$1\r\nk\r\n:5\r\n")).(*lua.LTable).RawGetString("map").(*lua.LTable)
	if m.RawGetString("k") != lua.LNumber(5) {
		t.Errorf("map -> %v", m.RawGetString("k"))
	}
	d := toLua(L, parse(",inf\r\n")).(*lua.LTable).RawGetString("double")
	if !math.IsInf(float64(d.(lua.LNumber)), 1) {
		t.Errorf("double inf -> %v", d)
	}
}

func TestShebangAndVersion(t *testing.T) {
	for _, tc := range []struct{ body, err string }{
		{"#!lua\nreturn 1", ""},
		{"#!lua flags=no-writes,allow-oom\nreturn 1", ""},
		{"#!lua flags=nope\nreturn 1", "ERR Unexpected flag in script shebang: nope"},
		{"#!perl\nreturn 1", "ERR Unexpected engine in script shebang: #!perl"},
		{"#!lua name=x\nreturn 1", "ERR Unknown lua shebang option: name=x"},
	} {
		_, err := compile("sha", []byte(tc.body))
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.err {
				t.Errorf("%q: %q, want %q", tc.body, got, tc.err)
			}
		} else if tc.err != "" {
			t.Errorf("%q compiled, want %q", tc.body, tc.err)
		}
	}
	if v := versionNum("7.0.15"); v != 0x07000f {
		t.Errorf("versionNum = %#x", v)
	}
}

// TestMemoryBound: a script growing a table without end is stopped once the
// heap grew past MaxMemory (64 MiB here); the loop's own bound (1 GiB)
// only keeps a broken watchdog from taking the machine.
func TestMemoryBound(t *testing.T) {
	h := harness(t)
	// Each step also spins a while, so the script grows over a second or
	// two instead of racing the watchdog's first look (50 ms) on a busy
	// machine; the bound is met after about 32 steps.
	got := h.Do("eval \"local t = {} for i = 1, 1024 do t[i] = string.rep('x', 1048576) .. i for j = 1, 20000 do end end return 'finished'\" 0")
	if !stdstrings.HasPrefix(got, "-ERR Script used more memory than allowed (lua_max_memory_mib) script: ") {
		t.Fatalf("reply %q", got)
	}
	if got := h.Do("eval \"return 'still serving'\" 0"); got != "$13\r\nstill serving\r\n" {
		t.Fatalf("after the stopped script: %q", got)
	}
}

// TestDecodersBounded: cjson.decode and cmsgpack.unpack make a table of
// every 3 (or 1) bytes of "[],[]," (or msgpack's empty array): 10 million
// tables from a 30 MB string would take the heap past the bound (64 MiB
// here) inside one Go call the watchdog cannot stop, so the decoders count
// what they make and the script is stopped as one over lua_max_memory.
func TestDecodersBounded(t *testing.T) {
	h := harness(t)
	for _, script := range []string{
		"local t = cjson.decode('[' .. string.rep('[],', 10000000) .. '[]]') return 'finished'",
		"local t = cmsgpack.unpack(string.char(221, 0, 152, 150, 128) .. string.rep(string.char(144), 10000000)) return 'finished'",
	} {
		// Stopped inside the decode, not after it: the whole decode
		// allocates over 1 GB, the bound (with the garbage of the
		// growing array, and what it made before the watchdog's first
		// look) about 400 MB.
		evalOverMemory(t, h, script, 700<<20)
	}
	// Within the bound both still decode.
	got := h.Do("eval \"return #cjson.decode('[' .. string.rep('[],', 10000) .. '[]]') + #cmsgpack.unpack(string.char(221, 0, 0, 39, 16) .. string.rep(string.char(144), 10000))\" 0")
	if got != ":20001\r\n" {
		t.Errorf("small decodes: %q", got)
	}
}

// evalOverMemory runs script, which must end with the lua_max_memory
// error having allocated at most maxAlloc bytes (stopped as it grew, not
// after), and checks that the next script runs.
func evalOverMemory(t *testing.T, h *commandtest.Harness, script string, maxAlloc uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := h.DoArgs([]byte("eval"), []byte(script), []byte("0"))
	runtime.ReadMemStats(&after)
	if !stdstrings.HasPrefix(got, "-ERR Script used more memory than allowed (lua_max_memory_mib) script: ") {
		t.Errorf("%.80s: reply %.200q", script, got)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > maxAlloc {
		t.Errorf("%.80s: allocated %d MB before it was stopped", script, n>>20)
	}
	if got := h.Do("eval \"return 'still serving'\" 0"); got != "$13\r\nstill serving\r\n" {
		t.Fatalf("after the stopped script: %q", got)
	}
}
