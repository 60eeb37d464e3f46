package integration

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// TestSplitReads sends commands one byte at a time, with pauses, and a
// 10 MiB value in uneven chunks (stored in 8 KiB chunks, so TiKV's 6 MiB
// entry limit does not apply).
func TestSplitReads(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		cmd := encode("SET", "slow", "value") + encode("GET", "slow") + "PING\r\n"
		for i := 0; i < len(cmd); i++ {
			r.write(cmd[i : i+1])
			if i%7 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		for _, want := range []string{"+OK\r\n", "$5\r\nvalue\r\n", "+PONG\r\n"} {
			if got := r.reply(); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		}
		size := 10 << 20 // chunked: past TiKV's 6 MiB entry limit too
		big := bytes.Repeat([]byte("0123456789abcdef"), size/16)
		msg := []byte(encode("SET", "big", string(big)))
		for off, step := 0, 1; off < len(msg); step = step*3 + 1 {
			end := min(off+step%(1<<20)+1, len(msg))
			r.write(string(msg[off:end]))
			off = end
		}
		if got := r.reply(); got != "+OK\r\n" {
			t.Fatalf("SET big = %q", got)
		}
		got := r.do("GET", "big")
		want := fmt.Sprintf("$%d\r\n%s\r\n", len(big), big)
		if got != want {
			t.Fatalf("GET big: %d bytes back, want %d", len(got), len(want))
		}
		if got := r.do("STRLEN", "big"); got != fmt.Sprintf(":%d\r\n", len(big)) {
			t.Fatalf("STRLEN big = %q", got)
		}
	})
}

// TestBigPipelineOrder pipelines commands with big arguments (read as they
// arrive) and big replies (written a window at a time) between small ones,
// and reads nothing for a while: every reply comes back whole and in order.
func TestBigPipelineOrder(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		a := strings.Repeat("a", 3<<20)
		b := strings.Repeat("0123456789", 1258292) // 12 MiB: three times the write window
		cmds := []string{encode("SET", "a", a), encode("GET", "a"), "PING\r\n", encode("SET", "b", b),
			encode("GET", "b"), encode("GET", "a"), encode("ECHO", "x"), encode("STRLEN", "b")}
		go func() {
			for _, c := range cmds {
				_, _ = r.conn.Write([]byte(c))
			}
		}()
		time.Sleep(300 * time.Millisecond) // let the server buffer replies
		bulk := func(s string) string { return fmt.Sprintf("$%d\r\n%s\r\n", len(s), s) }
		for i, want := range []string{"+OK\r\n", bulk(a), "+PONG\r\n", "+OK\r\n", bulk(b), bulk(a), bulk("x"),
			fmt.Sprintf(":%d\r\n", len(b))} {
			if got := r.reply(); got != want {
				t.Fatalf("reply %d: %d bytes %.40q, want %d bytes %.40q", i, len(got), got, len(want), want)
			}
		}
	})
}

// TestRawPipeline writes 1,000 commands in one write and reads 1,000
// replies in order.
func TestRawPipeline(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		var b strings.Builder
		for i := 0; i < 1000; i++ {
			switch i % 4 {
			case 0:
				b.WriteString(encode("SET", fmt.Sprintf("p%d", i%50), fmt.Sprint(i)))
			case 1:
				b.WriteString(encode("GET", fmt.Sprintf("p%d", (i-1)%50)))
			case 2:
				b.WriteString(encode("MSET", fmt.Sprintf("q%d", i), "1", fmt.Sprintf("q%d", i+1), "2"))
			case 3:
				b.WriteString(fmt.Sprintf("ECHO %d\r\n", i))
			}
		}
		r.write(b.String())
		for i := 0; i < 1000; i++ {
			var want string
			switch i % 4 {
			case 0, 2:
				want = "+OK\r\n"
			case 1:
				want = fmt.Sprintf("$%d\r\n%d\r\n", len(fmt.Sprint(i-1)), i-1)
			case 3:
				want = fmt.Sprintf("$%d\r\n%d\r\n", len(fmt.Sprint(i)), i)
			}
			if got := r.reply(); got != want {
				t.Fatalf("reply %d = %q, want %q", i, got, want)
			}
		}
	})
}

// TestProtocolErrors checks Redis's protocol error replies, that earlier
// pipelined commands are still answered, that the connection is closed,
// and that other clients are unaffected.
func TestProtocolErrors(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		other := dialRaw(t, addr)
		if got := other.do("SET", "survivor", "1"); got != "+OK\r\n" {
			t.Fatal(got)
		}
		cases := []struct{ in, want string }{
			{"*x\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
			{"*1\r\n:5\r\n", "-ERR Protocol error: expected '$', got ':'\r\n"},
			{"*1\r\n$-5\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
			{"*1\r\n$4294967296\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
			{"*3000000000\r\n", "-ERR Protocol error: invalid multibulk length\r\n"}, // over INT_MAX, as Redis 7.0
			{"SET \"unbalanced\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n"},
			{strings.Repeat("a", 70000), "-ERR Protocol error: too big inline request\r\n"},
		}
		for _, c := range cases {
			r := dialRaw(t, addr)
			r.write(encode("PING") + c.in)
			if got := r.reply(); got != "+PONG\r\n" {
				t.Fatalf("reply before the error = %q", got)
			}
			if got := r.reply(); got != c.want {
				t.Fatalf("%q: got %q, want %q", c.in[:min(len(c.in), 20)], got, c.want)
			}
			_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := r.r.ReadByte(); err != io.EOF {
				t.Fatalf("%q: connection not closed: %v", c.in[:min(len(c.in), 20)], err)
			}
		}
		if got := other.do("GET", "survivor"); got != "$1\r\n1\r\n" {
			t.Fatalf("other client: %q", got)
		}
	})
}

// TestInlineAndQuit covers inline commands and QUIT.
func TestInlineAndQuit(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		r.write("SET inl \"a b\"\r\nGET inl\r\n\r\n  \r\nQUIT\r\nPING\r\n")
		for _, want := range []string{"+OK\r\n", "$3\r\na b\r\n", "+OK\r\n"} {
			if got := r.reply(); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		}
		_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := r.r.ReadByte(); err != io.EOF {
			t.Fatalf("after QUIT: %v", err)
		}
	})
}

// TestRestartKeepsAcknowledgedWrites closes a node gracefully and opens
// another on the same directory.
func TestRestartKeepsAcknowledgedWrites(t *testing.T) {
	dir := t.TempDir()
	edit := func(c *conf.Config) {
		c.Storage.Badger.Dir = dir
		c.Storage.Badger.Durability = "everysec"
	}
	ctx := context.Background()
	n := startNode(t, "badger", edit)
	c := newClient(t, n.Addr(), 2)
	for i := 0; i < 500; i++ {
		must(t, c.Set(ctx, fmt.Sprintf("d%d", i), i, 0).Err())
	}
	must(t, c.Set(ctx, "ttl", "v", time.Hour).Err())
	c.Close()
	closeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	must(t, n.Close(closeCtx))

	n2 := startNode(t, "badger", edit)
	c2 := newClient(t, n2.Addr(), 3)
	if got := c2.DBSize(ctx).Val(); got != 501 {
		t.Fatalf("DBSIZE after restart = %d", got)
	}
	if v := c2.Get(ctx, "d499").Val(); v != "499" {
		t.Fatalf("d499 = %q", v)
	}
	if d := c2.TTL(ctx, "ttl").Val(); d <= 0 || d > time.Hour {
		t.Fatalf("TTL after restart = %v", d)
	}
}

// TestBigString: one SET of 100 MiB is stored whole and read back, on
// every driver (on TiKV the chunks are written in one transaction, under
// storage.tikv.max_txn_mib). 16 MiB on TiKV's in-process mock, 100 MiB on
// the network cluster: client-go commits a transaction's secondary keys
// in the background after the primary, so a read right after the SET may
// meet some of the 1,600 chunks still locked, and the mock resolves each
// lock met by scanning its whole region under one mutex — quadratic in
// the value's size, long enough over 100 MiB (15-50 s) that the node's
// health probe, queued behind, gives up and marks the store failed. TiKV
// and the network cluster resolve a lock by its key. Each command gets
// its own minute (a 32 MiB value on the mock under -race once took 61 s
// for the four commands together on a slow CI machine) and its time is
// logged.
func TestBigString(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		size := 100 << 20
		if onMock(t) {
			size = 16 << 20
		}
		r := dialRaw(t, addr)
		value := strings.Repeat("0123456789abcdef", size/16)
		timed := func(args ...string) string {
			t.Helper()
			_ = r.conn.SetDeadline(time.Now().Add(60 * time.Second))
			start := time.Now()
			got := r.do(args...)
			t.Logf("%s of a %d MiB value in %v", args[0], size>>20, time.Since(start).Round(time.Millisecond))
			return got
		}
		if got := timed("SET", "big", value); got != "+OK\r\n" {
			t.Fatalf("SET of %d MiB = %.200q", size>>20, got)
		}
		if got := timed("STRLEN", "big"); got != fmt.Sprintf(":%d\r\n", len(value)) {
			t.Fatalf("STRLEN = %q", got)
		}
		if got := timed("GETRANGE", "big", strconv.Itoa(size/2), strconv.Itoa(size/2+15)); got != "$16\r\n0123456789abcdef\r\n" {
			t.Fatalf("GETRANGE in the middle = %q", got)
		}
		if got := timed("GET", "big"); got != fmt.Sprintf("$%d\r\n%s\r\n", len(value), value) {
			t.Fatalf("GET of %d MiB: %d bytes, not the value: %.200q", size>>20, len(got), got)
		}
		if got := r.do("DEL", "big"); got != ":1\r\n" {
			t.Fatalf("DEL = %q", got)
		}
	})
}

// TestTooBigForTiKV: a write over storage.tikv.max_txn_mib is refused with
// a clear error, nothing of it is stored, and the connection goes on.
func TestTooBigForTiKV(t *testing.T) {
	n := startNode(t, "tikv", func(c *conf.Config) { c.Storage.TiKV.MaxTxnMiB = 4 })
	r := dialRaw(t, n.Addr())
	if got := r.do("SET", "big", strings.Repeat("x", 10<<20)); got != "-ERR value or transaction too large for the storage\r\n" {
		t.Fatalf("SET of 10 MiB over a 4 MiB transaction limit = %q", got)
	}
	if got := r.do("EXISTS", "big"); got != ":0\r\n" {
		t.Fatalf("EXISTS big after a refused SET = %q", got)
	}
	if got := r.do("PING"); got != "+PONG\r\n" {
		t.Fatalf("PING = %q", got)
	}
}
