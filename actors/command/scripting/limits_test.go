package scripting

import (
	"fmt"
	stdstrings "strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/resp"
)

// TestCyclicTableReply: a table that holds itself converts as Redis 7.0
// converts it (measured on redis-server 7.0.15): 7,995 nested one-element
// arrays, then "reached lua stack limit" in place of the next value; a map
// recursion ends where Redis's Lua stack accounting ends it.
func TestCyclicTableReply(t *testing.T) {
	h := harness(t)
	for _, proto := range []int{2, 3} {
		h.Proto, h.Client.Prot = proto, proto
		got := h.Do(`eval "local a = {}; local b = {a}; a[1] = b; return a" 0`)
		want := stdstrings.Repeat("*1\r\n", 7995) + "-ERR reached lua stack limit\r\n"
		if got != want {
			t.Errorf("proto %d: cyclic array reply: %d bytes, want %d (%.40q...%.60q)", proto, len(got), len(want), got, got[max(0, len(got)-60):])
		}
	}
	h.Proto, h.Client.Prot = 3, 3
	got := h.Do(`eval "local t = {}; t.map = {x = t}; return t" 0`)
	// Each level's value sits 3 slots deeper; at the 2,665th map both its
	// key (4 slots deeper) and its value are past the limit.
	want := stdstrings.Repeat("%1\r\n$1\r\nx\r\n", 2664) + "%1\r\n" + stdstrings.Repeat("-ERR reached lua stack limit\r\n", 2)
	if got != want {
		t.Errorf("cyclic map reply: %d bytes, want %d", len(got), len(want))
	}
}

// TestReplyTooLarge: a table holding itself twice would make 2^7995
// values; the conversion stops at the script reply bound with an error,
// and the next script runs.
func TestReplyTooLarge(t *testing.T) {
	h := harness(t)
	got := h.Do(`eval "local t = {}; t[1] = t; t[2] = t; return t" 0`)
	want := fmt.Sprintf("-ERR script reply is too large (over %d bytes): is a table nested in itself?\r\n", maxScriptReply)
	if got != want {
		t.Fatalf("reply = %.200q, want %q", got, want)
	}
	if got := h.Do(`eval "return 1" 0`); got != ":1\r\n" {
		t.Fatalf("next script = %q", got)
	}
}

// TestReplyTooLargeStrings: a table holding itself first and big strings
// after writes the strings once per level on the way back up, 7,995
// levels (a fuzz input once made that 176 GB and the process was killed):
// the bound stops it as it grows, with the same error, and the next
// script runs.
func TestReplyTooLargeStrings(t *testing.T) {
	h := harness(t)
	got := h.Do(`eval "local t = {}; t[1] = t; for i = 2, 24 do t[i] = string.rep('x', 1048576) end; return t" 0`)
	want := fmt.Sprintf("-ERR script reply is too large (over %d bytes): is a table nested in itself?\r\n", maxScriptReply)
	if got != want {
		t.Fatalf("reply = %d bytes %.200q, want %q", len(got), got, want)
	}
	if got := h.Do(`eval "return 1" 0`); got != ":1\r\n" {
		t.Fatalf("next script = %q", got)
	}
}

// TestSyntaxLevels: nesting is refused at the depths where Redis 7.0's Lua
// refuses it (each boundary measured on redis-server 7.0.15), and a long
// left-associative chain compiles as in Redis up to the tree depth bound.
func TestSyntaxLevels(t *testing.T) {
	rep := stdstrings.Repeat
	for _, tc := range []struct {
		name    string
		src     func(n int) string
		refused int // the first n Redis refuses
	}{
		{"do", func(n int) string { return rep("do ", n) + rep(" end", n) }, 200},
		{"if", func(n int) string { return rep("if true then ", n) + rep(" end", n) }, 200},
		{"concat", func(n int) string { return `return "a"` + rep(`.."a"`, n) }, 199},
		{"not", func(n int) string { return "return " + rep("not ", n) + "1" }, 199},
		{"table", func(n int) string { return "return " + rep("{", n) + "1" + rep("}", n) }, 199},
		{"pow", func(n int) string { return "return 2" + rep("^2", n) }, 199},
		{"function", func(n int) string { return "local x = " + rep("function() return ", n) + "1" + rep(" end", n) }, 100},
		{"call", func(n int) string { return "return tostring" + rep("(tostring", n) + "(1" + rep(")", n+1) }, 198},
		{"index", func(n int) string { return "local t={} return t" + rep("[t", n) + "[1" + rep("]", n+1) }, 198},
	} {
		if _, err := parseChunk(tc.src(tc.refused-1), "user_script"); err != nil {
			t.Errorf("%s at %d: %v, Redis compiles it", tc.name, tc.refused-1, err)
		}
		_, err := parseChunk(tc.src(tc.refused), "user_script")
		if err == nil || !stdstrings.Contains(err.Error(), "chunk has too many syntax levels") {
			t.Errorf("%s at %d: %v, want too many syntax levels", tc.name, tc.refused, err)
		}
	}
	if _, err := parseChunk("return 1"+rep("+1", 300_000), "user_script"); err != nil {
		t.Errorf("a 300,000-term sum: %v", err)
	}
	_, err := parseChunk("return 1"+rep("+1", maxSyntaxDepth+1), "user_script")
	if err == nil || !stdstrings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("a sum past the depth bound: %v", err)
	}
	h := harness(t)
	got := h.Do(`eval "` + rep("do ", 100_000) + rep("end ", 100_000) + `" 0`)
	if got != "-ERR Error compiling script (new function): user_script:1: chunk has too many syntax levels\r\n" {
		t.Errorf("100,000 nested blocks: %.200q", got)
	}
}

// TestJSONDecodeDepth: cjson.decode stops at Redis's decode_max_depth.
func TestJSONDecodeDepth(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{`eval "return #cjson.decode(string.rep('[', 1000) .. string.rep(']', 1000))" 0`, ":1\r\n"},
		{`eval "return cjson.decode(string.rep('[', 100000))" 0`,
			"-ERR user_script:1: Found too many nested data structures (1001) at character 1001 script: " +
				SHA1([]byte("return cjson.decode(string.rep('[', 100000))")) + ", on @user_script:1.\r\n"},
	})
}

// TestBigAllocationsBounded: library calls whose result is a multiple of
// their input (string.rep, table.concat, cjson.encode, cmsgpack.pack,
// struct.pack) are refused once they would take the heap past the script
// memory bound, with the bound's error, instead of one allocation that
// ends the process (string.rep('x', 2^30 * 8) did); the next script runs.
func TestBigAllocationsBounded(t *testing.T) {
	h := harness(t) // a 64 MiB bound
	for _, src := range []string{
		`return #string.rep('xx', 2^30)`,
		`return #string.rep(string.rep('x', 2^20), 2^20)`,
		`local s = string.rep('x', 2^20) local t = {} for i = 1, 2000 do t[i] = s end return #table.concat(t)`,
		`local t = {} for i = 1, 40 do t[#t + 1] = cjson.encode(t) end return #t`,
		`local s = string.rep(string.char(1), 2^20) local t = {} for i = 1, 200 do t[i] = s end return #cjson.encode(t)`,
		`local t = {} for i = 1, 40 do t[#t + 1] = cmsgpack.pack(t, t) end return #t`,
		`local s = string.rep('x', 2^20) local t = {} for i = 1, 2000 do t[i] = s end return #struct.pack(string.rep('s', 2000), unpack(t))`,
	} {
		want := "-ERR Script used more memory than allowed (lua_max_memory_mib) script: " + SHA1([]byte(src)) + ", on @user_script:1.\r\n"
		if got := h.Do(fmt.Sprintf("eval %q 0", src)); got != want {
			t.Errorf("%s\n got %.200q\nwant %q", src, got, want)
		}
		if got := h.Do(`eval "return 1" 0`); got != ":1\r\n" {
			t.Fatalf("after %s: %q", src, got)
		}
	}
	// Under the bound the same calls work.
	h.Run([]c{
		{`eval "return #string.rep('xy', 2^20)" 0`, ":2097152\r\n"},
		{`eval "local s = string.rep('x', 2^10) local t = {} for i = 1, 1000 do t[i] = s end return #table.concat(t, ',')" 0`, ":1024999\r\n"},
		{`eval "local s = string.rep(string.char(1), 2^10) local t = {} for i = 1, 1000 do t[i] = s end return #cjson.encode(t)" 0`, ":6147001\r\n"},
	})
}

// TestOneStepGrowthBounded: Lua builds some strings many times the size of
// what the script held a moment before, in one instruction the watchdog
// cannot stop: a concatenation of 64 terms, a gsub with a long
// replacement, a format of many %s (each 512 MiB here; doubling s = s .. s
// reached a 4 GB allocation and ended the process), a pattern's millions
// of matches. Each is refused as it grows past lua_max_memory (64 MiB
// here), as a script over it.
func TestOneStepGrowthBounded(t *testing.T) {
	h := harness(t)
	for _, script := range []string{
		"local s = string.rep('x', 8388608) local x = s" + stdstrings.Repeat(" .. s", 63) + " return #x",
		"local x = string.gsub(string.rep('x', 8192), 'x', string.rep('y', 65536)) return #x",
		"local s, t = string.rep('x', 8388608), {} for i = 1, 64 do t[i] = s end return #string.format(string.rep('%s', 64), unpack(t))",
		// Every match is listed before any is used: 4 million here.
		"local x, n = string.gsub(string.rep('x', 4194304), '.', 'y') return n",
		"for w in string.gmatch(string.rep('x', 4194304), '.') do return 1 end",
	} {
		evalOverMemory(t, h, script, 200<<20)
	}
	// Below the bound they run, and gsub gives Lua's result.
	got := h.Do("eval \"local s = string.rep('ab', 40000) .. 'c' local x, n = string.gsub(s, 'b', 'xyz') return {#(s .. s), #x, n, (string.gsub('hello world', 'o', '[%0]'))}\" 0")
	if want := "*4\r\n:160002\r\n:160001\r\n:40000\r\n$15\r\nhell[o] w[o]rld\r\n"; got != want {
		t.Errorf("small growth: %q, want %q", got, want)
	}
}

// TestKillInsideLibraryCall: SCRIPT KILL ends a script inside one long
// encoder call (cmsgpack.pack and cjson.encode of a table shared 16^15
// ways), which never returns to the VM's loop that looks at the kill:
// without the check in reserve the call ran on until the memory bound
// (1 GiB here) and the script ended over lua_max_memory, not killed; and
// without a bound (lua_max_memory_mib 0) the kill reaches it too.
func TestKillInsideLibraryCall(t *testing.T) {
	for _, bound := range []uint64{1 << 30, 0} {
		t.Run(fmt.Sprintf("bound %d", bound), func(t *testing.T) { killInsideLibraryCall(t, bound) })
	}
}

func killInsideLibraryCall(t *testing.T, bound uint64) {
	s := New(Options{Version: "7.2.0", MaxMemory: bound})
	h := commandtest.New(t, Commands(s))
	for _, enc := range []string{"cmsgpack.pack", "cjson.encode"} {
		// 15 levels (cmsgpack encodes at most 16), 16 ways each.
		script := "local t = {} for i = 1, 15 do local u = {} for j = 1, 16 do u[j] = t end t = u end return #" + enc + "(t)"
		done := make(chan string, 1)
		go func() { done <- h.DoArgs([]byte("eval"), []byte(script), []byte("0")) }()
		for busy := false; !busy; {
			select {
			case got := <-done:
				t.Fatalf("%s: the script ended before the kill: %.200q", enc, got)
			case <-time.After(5 * time.Millisecond):
			}
			d, _ := s.Busy()
			busy = d >= 200*time.Millisecond
		}
		if err := s.kill(false); err != nil {
			t.Fatalf("%s: SCRIPT KILL: %v", enc, err)
		}
		if got := <-done; !stdstrings.HasPrefix(got, "-ERR Script killed by user with SCRIPT KILL... script: ") {
			t.Errorf("%s: killed script replied %.200q", enc, got)
		}
	}
	if got := h.Do("eval \"return 'still serving'\" 0"); got != "$13\r\nstill serving\r\n" {
		t.Fatalf("after the killed scripts: %q", got)
	}
}

// TestLibraryCompileError: a library whose code does not parse is
// refused as Redis refuses it, "Error compiling function:" with the
// line in user_function (the parser's own words differ from Lua's); one
// that parses but fails as it runs is an error registering functions.
func TestLibraryCompileError(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{"#!lua name=l\nredis.register_function('f', function() bad script end)", "ERR Error compiling function: user_function:2: "},
		{"#!lua name=l\nerror('boom')", "ERR Error registering functions: "},
	} {
		_, err := parseLibrary(tc.code)
		if err == nil || !stdstrings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q...", tc.code, err, tc.want)
		}
	}
}

// TestReplyBoundWhenMeasured: past the spill size the conversion only
// measures, and the bound falls on the same byte as when it writes: a
// reply of exactly the bound is written whole, one byte more is refused,
// and in both cases the caller's earlier bytes stay.
func TestReplyBoundWhenMeasured(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	arr := L.NewTable()
	for i := 0; i < 100; i++ {
		arr.Append(lua.LString("0123456789")) // $10\r\n0123456789\r\n: 17 bytes
	}
	const size = 6 + 100*17 // *100\r\n...: 1,706 bytes
	for _, spill := range []int{replySpill, 0, 50} {
		for _, limit := range []int{size, size - 1} {
			w := resp.NewWriter(2)
			w.Simple("earlier")
			writeReplySpill(w, arr, 2, limit, spill)
			got := string(w.Bytes())
			if !stdstrings.HasPrefix(got, "+earlier\r\n") {
				t.Fatalf("spill %d limit %d: the earlier reply is gone: %.40q", spill, limit, got)
			}
			got = got[len("+earlier\r\n"):]
			fits := limit >= size
			if fits && (len(got) != size || !stdstrings.HasPrefix(got, "*100\r\n$10\r\n0123456789\r\n")) {
				t.Errorf("spill %d limit %d: %d bytes %.40q, want the whole %d", spill, limit, len(got), got, size)
			}
			if !fits && !stdstrings.HasPrefix(got, "-ERR script reply is too large") {
				t.Errorf("spill %d limit %d: %.60q, want the too-large error", spill, limit, got)
			}
		}
	}
}
