package scripting

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/list"
	cmdstrings "github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/resp"
)

// luaGen builds a Lua program from fuzz bytes with a small grammar aimed at
// what can hurt a server: nested and cyclic tables returned as replies,
// deep syntax, huge strings (concatenated, gsub'd), deep recursion,
// pcall/error chains, cjson and cmsgpack on hostile input, and redis.call
// in between. Every loop it writes is bounded, so a program always ends.
type luaGen struct {
	data  []byte
	pos   int
	depth int
	// inLoop: the statement being made is a loop's body. Loops do not
	// nest: 50 x 50 iterations of cjson.encode over a growing table took
	// 6 s, long enough under load for the fuzz engine to call its worker
	// hung (CI once), and nesting finds nothing one loop does not.
	inLoop bool
}

// pick returns a choice in [0, n) from the next byte (0 when the bytes
// have run out, which always picks a leaf).
func (g *luaGen) pick(n int) int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b) % n
}

// size returns one of a few sizes, small to past every bound.
func (g *luaGen) size() int {
	return []int{0, 1, 2, 7, 64, 199, 201, 1000, 1001, 8000, 20000, 1 << 20}[g.pick(12)]
}

func (g *luaGen) program() string {
	var b strings.Builder
	b.WriteString("local t1, t2 = {}, {}\n")
	if g.pick(4) == 0 {
		b.WriteString("redis.setresp(3)\n")
	}
	for n := g.pick(6); n > 0; n-- {
		b.WriteString(g.stmt())
		b.WriteString("\n")
	}
	b.WriteString("return " + g.expr())
	return b.String()
}

func (g *luaGen) stmt() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 4 {
		return "t1[1] = t2"
	}
	switch g.pick(10) {
	case 0:
		return "t1[" + g.key() + "] = " + g.expr()
	case 1:
		return "t2[" + g.key() + "] = t1"
	case 2:
		if g.inLoop {
			return g.stmt()
		}
		n := g.pick(50)
		g.inLoop = true
		body := g.stmt()
		g.inLoop = false
		return fmt.Sprintf("for i = 1, %d do %s end", n, body)
	case 3:
		return "pcall(function() " + g.stmt() + " error(" + g.expr() + ") end)"
	case 4:
		return "local ok, e = pcall(error, " + g.expr() + ") t1.e = e"
	case 5:
		return "pcall(redis.call, 'set', 'k', " + g.expr() + ")"
	case 6:
		return "t1.map = {[" + g.expr() + "] = t2} t2.set = {[t1] = true}"
	case 7:
		return fmt.Sprintf("local function f(n) if n <= 0 then return %s end return {f(n - 1)} end t1.r = select(2, pcall(f, %d))",
			g.expr(), g.size())
	case 8:
		n := g.size()
		return fmt.Sprintf("%s t1.x = 1 %s", strings.Repeat("do ", min(n, 300)), strings.Repeat("end ", min(n, 300)))
	default:
		return "setmetatable(t2, {__index = t2, __tostring = function(s) return tostring(s) end}) pcall(tostring, t2)"
	}
}

func (g *luaGen) key() string {
	switch g.pick(3) {
	case 0:
		return "1"
	case 1:
		return "'map'"
	default:
		return "#t1 + 1"
	}
}

func (g *luaGen) expr() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 6 {
		return "t1"
	}
	switch g.pick(26) {
	case 0:
		return "t1"
	case 1:
		return "t2"
	case 2:
		return "{" + g.expr() + ", " + g.expr() + "}"
	case 3:
		return "{map = {" + g.expr() + ", x = " + g.expr() + "}}"
	case 4:
		return "{set = {[" + g.expr() + "] = true}}"
	case 5:
		return "{ok = " + g.expr() + "}"
	case 6:
		return "{err = " + g.expr() + "}"
	case 7:
		return "{double = " + []string{"0/0", "1/0", "-1/0", "1.5"}[g.pick(4)] + "}"
	case 8:
		return "{big_number = '" + strings.Repeat("9", g.pick(40)) + "'}"
	case 9:
		return fmt.Sprintf("string.rep('x', %d)", g.size())
	case 10:
		return []string{"0", "-1", "0/0", "1/0", "2^63", "-2^63", "1e308", "3.99"}[g.pick(8)]
	case 11:
		n := g.size()
		return fmt.Sprintf("cjson.decode(string.rep('[', %d) .. string.rep(']', %d))", n, n)
	case 12:
		return "cjson.encode(" + g.expr() + ")"
	case 13:
		return "cmsgpack.unpack(cmsgpack.pack(" + g.expr() + "))"
	case 14:
		return fmt.Sprintf("cmsgpack.unpack(string.rep('\\145', %d))", g.size())
	case 15:
		return "redis.call('get', 'k')"
	case 16:
		return "select(2, pcall(redis.call, 'lpush', 'k', 'x'))"
	case 17:
		return "redis.error_reply(" + g.str() + ")"
	case 18:
		return "redis.status_reply(" + g.str() + ")"
	case 19:
		n := min(g.size(), 400)
		return strings.Repeat("(", n) + g.expr() + strings.Repeat(")", n)
	case 20:
		n := min(g.size(), 400)
		return "{" + strings.Repeat("{", n) + "1" + strings.Repeat("}", n) + "}"
	case 21:
		return "select(2, pcall(error, " + g.expr() + "))"
	case 22:
		return "tostring(" + g.expr() + ")"
	case 23:
		return "(tostring(" + g.expr() + ") .. tostring(" + g.expr() + "))"
	case 24:
		return "(string.gsub(tostring(" + g.expr() + "), '.', tostring(" + g.expr() + ")))"
	default:
		return g.str()
	}
}

func (g *luaGen) str() string {
	return []string{"'a'", "'a\\r\\nb'", "''", "'ERR x'", "'-WRONGTYPE y'", "string.rep('\\0', 3)"}[g.pick(6)]
}

// checkOneReply fails unless b is exactly one well-formed reply.
func checkOneReply(t *testing.T, src string, b string) {
	t.Helper()
	r, n, err := resp.ParseReply([]byte(b))
	if err != nil || n != len(b) {
		t.Fatalf("script %q: reply not one well-formed reply (%v, %d of %d bytes): %.200q", src, err, n, len(b), b)
	}
	_ = r
}

// FuzzScript runs generated scripts through EVAL: each must give one
// well-formed reply, and the scripting engine must still answer after it.
// A Go stack overflow or runaway allocation would end the process, which
// fails the fuzz run. .ci/run runs it for a bounded count.
//
// A script that runs past fuzzBudget is killed, written or not: the fuzz
// engine ends a worker whose input runs 10 s ("deadlocked!", exit status
// 2, CI twice), and a program of this grammar can run that long within
// the memory bound (cmsgpack.pack of a table shared 49 ways at each of
// 16 levels: 11.8 s with a bound of 256 MiB). The bound here is 64 MiB,
// which such a script reaches sooner and the collections it takes are
// shorter; the kill lands wherever the script is, which the run then
// checks too.
func FuzzScript(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0})                     // return t2
	f.Add([]byte{0, 1, 1, 2, 0, 1})            // t2[...] = t1; return a table holding itself
	f.Add([]byte{0, 2, 1, 1, 0, 1, 0, 3, 0})   // cycles through map and set
	f.Add([]byte{0, 1, 7, 11, 9, 11, 11})      // deep recursion, huge strings
	f.Add([]byte{0, 3, 3, 3, 3, 3, 12, 0})     // pcall chains encoding a cycle
	f.Add([]byte{1, 2, 8, 8, 19, 8, 20, 9, 0}) // deep syntax
	f.Add([]byte{0, 1, 0, 2, 2, 0, 1})         // t1[#t1+1] = {t1, t2}
	s := New(Options{Version: "7.2.0", MaxMemory: 64 << 20, MaxReply: 4 << 20})
	h := commandtest.New(f, Commands(s), cmdstrings.Commands(), keys.Commands(), list.Commands())
	f.Fuzz(func(t *testing.T, data []byte) {
		h := h.For(t)
		g := &luaGen{data: data}
		src := g.program()
		for _, proto := range []int{2, 3} {
			h.Proto, h.Client.Prot = proto, proto
			budget := time.AfterFunc(fuzzBudget, func() { s.stopOlder(fuzzBudget) })
			reply := h.DoArgs([]byte("eval"), []byte(src), []byte("0"))
			budget.Stop()
			checkOneReply(t, src, reply)
			if got := h.DoArgs([]byte("eval"), []byte("return 1"), []byte("0")); got != ":1\r\n" {
				t.Fatalf("after %q: EVAL return 1 = %q", src, got)
			}
		}
	})
}

// fuzzBudget is how long one generated script may run.
const fuzzBudget = time.Second

// stopOlder ends every script that has run for d or more as SCRIPT KILL
// would, even one that wrote: the fuzz harness's time budget.
func (s *Scripts) stopOlder(d time.Duration) {
	s.running.mu.Lock()
	defer s.running.mu.Unlock()
	for r := range s.running.all {
		if time.Since(r.start) >= d {
			r.kill()
		}
	}
}
