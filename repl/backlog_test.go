package repl

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

func effect(db int, args ...string) store.Effect {
	bs := make([][]byte, len(args))
	for i, a := range args {
		bs[i] = []byte(a)
	}
	return store.Effect{DB: db, Cmd: resp.AppendCommand(nil, bs...)}
}

func never() bool { return false }

// The stream SELECTs a database when it changes (before a MULTI, not
// inside), and a reader gets the bytes from where it joined.
func TestBacklogSelects(t *testing.T) {
	var off, size atomic.Int64
	size.Store(1 << 20)
	b := newBacklog(100, &size, 1<<20, &off)
	rd, at := b.joinEnd()
	if at != 100 {
		t.Fatalf("joined at %d", at)
	}
	b.appendEffects([]store.Effect{effect(0, "SET", "a", "1")})
	b.appendEffects([]store.Effect{{DB: 2, Cmd: resp.AppendCommand(nil, []byte("MULTI"))}, effect(2, "INCR", "n"), {DB: -1, Cmd: resp.AppendCommand(nil, []byte("EXEC"))}})
	b.appendEffects([]store.Effect{effect(2, "DEL", "b")})
	got, err := b.next(rd, nil, 1<<20, never)
	if err != nil {
		t.Fatal(err)
	}
	want := "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n" +
		"*2\r\n$6\r\nSELECT\r\n$1\r\n2\r\n*1\r\n$5\r\nMULTI\r\n*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n*1\r\n$4\r\nEXEC\r\n" +
		"*2\r\n$3\r\nDEL\r\n$1\r\nb\r\n"
	if string(got) != want {
		t.Fatalf("stream %q\nwant %q", got, want)
	}
	if off.Load() != 100+int64(len(want)) {
		t.Fatalf("offset %d, want %d", off.Load(), 100+len(want))
	}
	// A partial resync from inside the history; none from outside it.
	if _, ok := b.joinAt(99); ok {
		t.Fatal("joined before the first byte")
	}
	if _, ok := b.joinAt(off.Load() + 1); ok {
		t.Fatal("joined past the end")
	}
	r2, ok := b.joinAt(off.Load() - 24)
	if !ok {
		t.Fatal("cannot join inside the history")
	}
	if got, _ := b.next(r2, nil, 1<<20, never); string(got) != want[len(want)-24:] {
		t.Fatalf("partial %q", got)
	}
}

// The backlog keeps size bytes, or what a reader has not read, up to the
// limit: a reader further behind is dropped.
func TestBacklogTrim(t *testing.T) {
	var off, sz atomic.Int64
	const size, limit = 4 << 20, 16 << 20
	sz.Store(size)
	b := newBacklog(0, &sz, limit, &off)
	slow := b.join(0)
	big := effect(0, "SET", "k", strings.Repeat("x", 64<<10))
	for off.Load() < 12<<20 {
		b.appendEffects([]store.Effect{big})
	}
	if first, n := b.stats(); first != 0 || n != off.Load() {
		t.Fatalf("with a reader at 0: first %d, %d bytes", first, n)
	}
	for off.Load() < 20<<20 {
		b.appendEffects([]store.Effect{big})
	}
	if _, err := b.next(slow, nil, 100, never); !errors.Is(err, errBehind) {
		t.Fatalf("a reader %d bytes behind: %v", off.Load(), err)
	}
	first, n := b.stats()
	if n > 2*size+(1<<20) || first+n != off.Load() || n < size {
		t.Fatalf("without readers: first %d, %d bytes held of %d", first, n, off.Load())
	}
	if _, ok := b.joinAt(off.Load() - size); !ok {
		t.Fatal("the last size bytes are not all held")
	}
}

// TestBacklogWrapsNamespaces: a named namespace's writes go out wrapped
// in a PUBLISH (no SELECT: a Redis replica stays in its database), a
// transaction's MULTI and EXEC as they are, and the wrapped command
// unwraps to its database and arguments.
func TestBacklogWrapsNamespaces(t *testing.T) {
	var off, size atomic.Int64
	size.Store(1 << 20)
	b := newBacklog(0, &size, 1<<20, &off)
	rd, _ := b.joinEnd()
	b.appendEffects([]store.Effect{effect(0, "SET", "a", "1")})
	b.appendEffects([]store.Effect{effect(17, "SET", "a", "2")})
	b.appendEffects([]store.Effect{{DB: 17, Cmd: resp.AppendCommand(nil, []byte("MULTI"))}, effect(17, "INCR", "n"), {DB: -1, Cmd: resp.AppendCommand(nil, []byte("EXEC"))}})
	b.appendEffects([]store.Effect{effect(0, "DEL", "a")})
	got, err := b.next(rd, nil, 1<<20, never)
	if err != nil {
		t.Fatal(err)
	}
	set := "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n2\r\n"
	incr := "*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n"
	wrap := func(cmd string) string {
		msg := "17\n" + cmd
		return fmt.Sprintf("*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(namespaceChannel), namespaceChannel, len(msg), msg)
	}
	want := "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n" + wrap(set) +
		"*1\r\n$5\r\nMULTI\r\n" + wrap(incr) + "*1\r\n$4\r\nEXEC\r\n" + "*2\r\n$3\r\nDEL\r\n$1\r\na\r\n"
	if string(got) != want {
		t.Fatalf("stream %q\nwant %q", got, want)
	}
	db, args, err := unwrapNamespaced([]byte("17\n" + set))
	if err != nil || db != 17 || fmt.Sprintf("%q", args) != `["SET" "a" "2"]` {
		t.Errorf("unwrap: %d %q %v", db, args, err)
	}
	for _, bad := range []string{"17", "3\n" + set, "x\n" + set, "17\n*2\r\n$3\r\nGET\r\n", "17\n" + set + set} {
		if _, _, err := unwrapNamespaced([]byte(bad)); !errors.Is(err, errSkip) {
			t.Errorf("unwrap %q: %v, want errSkip", bad, err)
		}
	}
}
