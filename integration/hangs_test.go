package integration

import (
	"strings"
	"testing"
	"time"
)

// TestReplyOffStillSendsPushes: CLIENT REPLY OFF and SKIP silence
// replies, not pushes. In RESP2 a (P|S)SUBSCRIBE's confirmations are
// arrays, and rekv dropped them, so a client waiting for its PSUBSCRIBE
// confirmation hung; a refused CLIENT REPLY is silent too, and RESET
// turns replies on before its own (rekv silenced it). Compared byte for
// byte with redis-server, RESP2 and RESP3.
func TestReplyOffStillSendsPushes(t *testing.T) {
	red := redisServer(t)
	sequences := [][][]string{
		{{"CLIENT", "REPLY", "OFF"}, {"SUBSCRIBE", "a", "b"}, {"PSUBSCRIBE", "*"}, {"PING"}, {"UNSUBSCRIBE", "a"},
			{"SSUBSCRIBE", "s"}, {"SUNSUBSCRIBE"}, {"PUNSUBSCRIBE"}, {"CLIENT", "REPLY", "ON"}, {"UNSUBSCRIBE"}, {"PING"}},
		{{"CLIENT", "REPLY", "SKIP"}, {"PSUBSCRIBE", "*"}, {"PING"}, {"CLIENT", "REPLY", "SKIP"}, {"PING"}, {"PING", "x"}},
		{{"CLIENT", "REPLY", "OFF"}, {"SET", "k", "v"}, {"SUBSCRIBE"}, {"CLIENT", "REPLY", "ON"}, {"GET", "k"}},
	}
	// run sends a sequence, then RESET (replies on again, subscriptions
	// gone) and a PING, and returns everything the server wrote back up to
	// that PING's answer (silenced replies send nothing).
	run := func(t *testing.T, addr, proto string, seq [][]string) string {
		c := dialRaw(t, addr)
		c.do("HELLO", proto)
		var all strings.Builder
		for _, args := range seq {
			all.WriteString(encode(args...))
		}
		c.write(all.String() + encode("RESET") + encode("PING", "end"))
		var out strings.Builder
		for {
			s, err := readReply(c.r)
			if err != nil {
				t.Fatalf("%q: %v after %q", seq, err, out.String())
			}
			out.WriteString(s)
			if strings.Contains(s, "end") {
				return out.String()
			}
		}
	}
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []string{"2", "3"} {
			for _, seq := range sequences {
				want, got := run(t, red, proto, seq), run(t, addr, proto, seq)
				if got != want {
					t.Errorf("RESP%s %q:\n redis: %q\n  rekv: %q", proto, seq, want, got)
				}
			}
		}
	})
}

// TestFlushReleasesStreamGroupReaders: FLUSHALL, FLUSHDB and FLUSHALL
// ASYNC delete the stream an XREADGROUP ... BLOCK waits on; its client
// gets "-UNBLOCKED the stream key no longer exists" at once, as in Redis
// (it waited out its timeout). A BLPOP on a flushed list waits on.
func TestFlushReleasesStreamGroupReaders(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, flush := range [][]string{{"FLUSHALL"}, {"FLUSHDB"}, {"FLUSHALL", "ASYNC"}} {
			admin := dialRaw(t, addr)
			if got := admin.do("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"); got != "+OK\r\n" {
				t.Fatalf("XGROUP CREATE: %q", got)
			}
			reader, popper := dialRaw(t, addr), dialRaw(t, addr)
			reader.write(encode("XREADGROUP", "GROUP", "g", "c", "BLOCK", "20000", "STREAMS", "s", ">"))
			popper.write(encode("BLPOP", "l", "0.5"))
			time.Sleep(200 * time.Millisecond) // both block
			start := time.Now()
			admin.do(flush...)
			if got := reader.reply(); got != "-UNBLOCKED the stream key no longer exists\r\n" {
				t.Fatalf("%v: the group reader got %q", flush, got)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("%v: the group reader was released after %v", flush, took)
			}
			if got := popper.reply(); got != "*-1\r\n" {
				t.Fatalf("%v: BLPOP got %q", flush, got)
			}
			if took := time.Since(start); took < 250*time.Millisecond {
				t.Fatalf("%v: BLPOP answered after %v, before its timeout", flush, took)
			}
		}
	})
}
