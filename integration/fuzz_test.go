package integration

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/all"
	"github.com/rekv/rekv/actors/command/facts"
)

// Command-layer fuzzing: random argument vectors for every command in the
// table, checked for "no panic or internal error, a well-formed reply,
// the connection alive". Values come from a vocabulary of edge cases
// (numbers at and past the 64-bit limits, inf/nan, range syntax, empty and
// binary strings), the keys of each type, and the command's own keywords
// (from COMMAND DOCS' argument tokens), so arguments reach past the first
// check. TestCommandFuzz runs a bounded seeded sweep on every `go test`;
// REKVTEST_FUZZ_ROUNDS raises the rounds per command, REKVTEST_FUZZ_SEED
// picks another seed.

// fuzzSkip lists what the sweep leaves out: commands that stop the
// server, block, wait out their timeout, pause or silence clients, reach
// the network, or turn the connection into a replica's link.
var fuzzSkip = map[string]bool{
	"shutdown": true, "monitor": true, "quit": true, "migrate": true, "wait": true, "waitaof": true,
	"client|kill": true, "client|pause": true, "client|reply": true, "config|set": true, "config|rewrite": true,
	"save": true, "bgsave": true, "debug": true, "multi": true, "sync": true, "psync": true,
}

// fuzzVocabulary returns the edge-case values arguments are drawn from.
func fuzzVocabulary() []string {
	return []string{"", "0", "1", "-1", "2", "3", "7", "10", "-100", "100000", "4294967296",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999",
		"1.5", "-0.5", "0.0001", "1e308", "1e400", "-1e400", "inf", "-inf", "+inf", "nan", "(1", "(-1", "[a", "(a",
		"-", "+", "*", "$", ">", "0-0", "0-1", "1-1", "1-*", "18446744073709551615-18446744073709551615",
		"abc", "a*", "h?llo", "[", "\x00\xff\xfe", "é", strings.Repeat("x", 300), "-2", "1000000000",
		"fk:s", "fk:h", "fk:l", "fk:z", "fk:set", "fk:x", "fk:none", "{t}a", "{t}b", "m", "f", "g",
		"u8", "i64", "#1", "km", "m", "100", "__redis__:invalidate"}
}

// commandTokens returns the keywords of each command and subcommand from
// COMMAND DOCS' argument structures (each Spec's Doc).
func commandTokens(t *testing.T) map[string][]string {
	out := map[string][]string{}
	var walk func(name string, as []facts.Arg)
	walk = func(name string, as []facts.Arg) {
		for _, a := range as {
			if a.Token != "" {
				out[name] = append(out[name], a.Token)
			}
			walk(name, a.Arguments)
		}
	}
	for _, s := range all.Registry(nil).All() {
		for _, sp := range append([]*command.Spec{s}, s.Subcommands...) {
			if sp.Doc != nil {
				walk(sp.FullName(), sp.Doc.Arguments)
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d commands have keywords", len(out))
	}
	return out
}

func TestCommandFuzz(t *testing.T) {
	rounds := 12
	if v, err := strconv.Atoi(os.Getenv("REKVTEST_FUZZ_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("REKVTEST_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d (REKVTEST_FUZZ_SEED), %d rounds per command", seed, rounds)
	tokens := commandTokens(t)
	vocab := fuzzVocabulary()
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		r := rand.New(rand.NewPCG(seed, 1))
		c := dialRaw(t, addr)
		list := c.do("COMMAND", "LIST")
		var names []string
		for _, l := range strings.Split(list, "\r\n") {
			if l != "" && l[0] != '*' && l[0] != '$' && !strings.Contains(list, "\r\n"+l+"|") && !fuzzSkip[l] {
				names = append(names, l) // commands and subcommands, not containers
			}
		}
		setup := func() {
			c.write(encode("RESET") + encode("SELECT", "0") + encode("FLUSHALL") + encode("SET", "fk:s", "12") +
				encode("HSET", "fk:h", "f", "1", "g", "x") + encode("RPUSH", "fk:l", "a", "b", "c") +
				encode("ZADD", "fk:z", "1", "m", "2", "n") + encode("SADD", "fk:set", "m", "1") +
				encode("XADD", "fk:x", "1-1", "f", "v") + encode("XGROUP", "CREATE", "fk:x", "g", "0"))
			for i := 0; i < 10; i++ {
				c.reply()
			}
		}
		sent := 0
		for round := 0; round < rounds; round++ {
			setup()
			for _, name := range names {
				if r.IntN(4) == 0 && round > 0 {
					continue // vary the order of state a little
				}
				args := strings.Split(name, "|")
				blocking := false
				for _, b := range []string{"blpop", "brpop", "blmove", "brpoplpush", "blmpop", "bzpopmin", "bzpopmax", "bzmpop", "xread", "xreadgroup"} {
					blocking = blocking || args[0] == b
				}
				for n := r.IntN(8); n > 0; n-- {
					switch k := r.IntN(10); {
					case k < 4 && len(tokens[name]) > 0:
						args = append(args, tokens[name][r.IntN(len(tokens[name]))])
					case k < 9:
						args = append(args, vocab[r.IntN(len(vocab))])
					default:
						b := make([]byte, r.IntN(12))
						for i := range b {
							b[i] = byte(r.IntN(256))
						}
						args = append(args, string(b))
					}
				}
				if blocking { // never wait: a timeout argument is what blocks
					for i, a := range args {
						if strings.EqualFold(a, "block") {
							args = args[:i]
							break
						}
					}
					switch args[0] {
					case "xread", "xreadgroup":
					case "blmpop", "bzmpop": // the timeout comes first
						if len(args) > 1 {
							args[1] = "0.001"
						} else {
							args = append(args, "0.001")
						}
					default:
						args = append(args, "0.001")
					}
				}
				_ = c.conn.SetDeadline(time.Now().Add(20 * time.Second))
				marker := "m" + strconv.Itoa(sent)
				c.write(encode(args...) + encode("PING", marker))
				got, err := readReply(c.r)
				if err != nil {
					t.Fatalf("%q: no well-formed reply: %v (%q)", args, err, got)
				}
				var extra []string
				for {
					s, err := readReply(c.r)
					if err != nil {
						t.Fatalf("%q then PING: %v (%q)", args, err, s)
					}
					if strings.Contains(s, marker) {
						break
					}
					extra = append(extra, s)
				}
				if len(extra) > 0 && !strings.HasPrefix(got, ">") && !strings.Contains(strings.Join(extra, ""), "subscribe") {
					t.Fatalf("%q: more than one reply: %q then %q", args, got, extra)
				}
				if strings.HasPrefix(got, "-ERR internal error") {
					t.Fatalf("%q: %q (a panic or an unexpected failure: see the server log)", args, got)
				}
				sent++
				if args[0] == "subscribe" || args[0] == "psubscribe" || args[0] == "ssubscribe" || args[0] == "multi" ||
					args[0] == "hello" || args[0] == "select" || args[0] == "client" || args[0] == "reset" || args[0] == "auth" {
					// Leave connection state as it was: RESET answers after any
					// subscription confirmations still to come.
					c.write(encode("RESET"))
					for {
						s, err := readReply(c.r)
						if err != nil {
							t.Fatalf("after %q: %v", args, err)
						}
						if s == "+RESET\r\n" {
							break
						}
					}
				}
			}
			if got := c.do("PING"); got != "+PONG\r\n" {
				t.Fatalf("round %d: PING = %q", round, got)
			}
		}
		t.Logf("%s: %d random commands over %d names", addr, sent, len(names))
		if sent < len(names) {
			t.Fatalf("only %d commands sent", sent)
		}
	})
}
