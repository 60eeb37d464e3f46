package list

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/driverstest"
)

type c = commandtest.Case

func TestListCommands(t *testing.T) {
	h := commandtest.New(t, Commands(), keys.Commands(), strings.Commands())
	h.Run([]c{
		{"rpush l a b c", ":3\r\n"},
		{"lpush l z", ":4\r\n"},
		{"lrange l 0 -1", "*4\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n"},
		{"lindex l -4", "$1\r\nz\r\n"},
		{"lindex l -5", "$-1\r\n"},
		{"lindex l 9223372036854775807", "$-1\r\n"},
		{"lindex l -9223372036854775808", "$-1\r\n"},
		{"lrange l -9223372036854775808 9223372036854775807", "*4\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n"},
		{"lrange l 9223372036854775807 -9223372036854775808", "*0\r\n"},
		{"lset l -1 C", "+OK\r\n"},
		{"lset l 4 x", "-ERR index out of range\r\n"},
		{"linsert l before z y", ":5\r\n"},
		{"linsert l after C d", ":6\r\n"},
		{"lrange l 0 -1", "*6\r\n$1\r\ny\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nC\r\n$1\r\nd\r\n"},
		{"lrem l 0 a", ":1\r\n"},
		{"lpos l d", ":4\r\n"},
		{"ltrim l 1 2", "+OK\r\n"},
		{"lrange l 0 -1", "*2\r\n$1\r\nz\r\n$1\r\nb\r\n"},
		{"rpop l 5", "*2\r\n$1\r\nb\r\n$1\r\nz\r\n"},
		{"exists l", ":0\r\n"},
		{"lpop l", "$-1\r\n"},
		{"lpop l 1", "*-1\r\n"},
		{"blpop l 0", "*-1\r\n"}, // the harness cannot block: Run reports would-block
	})
}

// TestInsertAndRemoveKeepIndexesContiguous checks every position of
// LINSERT and LREM against a model, so both the head-side and the
// tail-side moves are exercised.
func TestInsertAndRemoveKeepIndexesContiguous(t *testing.T) {
	h := commandtest.New(t, Commands(), keys.Commands())
	for n := 1; n <= 7; n++ {
		for pos := 0; pos < n; pos++ {
			for _, after := range []bool{false, true} {
				h.Do("del l")
				var model []string
				for i := 0; i < n; i++ {
					h.Do(fmt.Sprintf("rpush l e%d", i))
					model = append(model, fmt.Sprintf("e%d", i))
				}
				where, at := "before", pos
				if after {
					where, at = "after", pos+1
				}
				h.Do(fmt.Sprintf("linsert l %s e%d new", where, pos))
				model = append(model[:at], append([]string{"new"}, model[at:]...)...)
				checkList(t, h, model)
				// Remove every third element (and the new one) in one LREM per value.
				for i := pos % 3; i < n; i += 3 {
					h.Do(fmt.Sprintf("lrem l 0 e%d", i))
					model = remove(model, fmt.Sprintf("e%d", i))
				}
				h.Do("lrem l -1 new")
				model = remove(model, "new")
				checkList(t, h, model)
			}
		}
	}
}

func remove(m []string, v string) []string {
	out := m[:0:0]
	for _, x := range m {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

func checkList(t *testing.T, h *commandtest.Harness, model []string) {
	t.Helper()
	want := fmt.Sprintf("*%d\r\n", len(model))
	for _, v := range model {
		want += fmt.Sprintf("$%d\r\n%s\r\n", len(v), v)
	}
	if got := h.Do("lrange l 0 -1"); got != want {
		t.Fatalf("list %q, want %v", got, model)
	}
	if got, want := h.Do("llen l"), fmt.Sprintf(":%d\r\n", len(model)); got != want {
		t.Fatalf("LLEN %q want %q", got, want)
	}
	for i, v := range model { // every index is a point read
		if got, want := h.Do(fmt.Sprintf("lindex l %d", i)), fmt.Sprintf("$%d\r\n%s\r\n", len(v), v); got != want {
			t.Fatalf("LINDEX %d = %q want %q", i, got, want)
		}
	}
}

// loadList writes an n-element list directly (fast), indexes from
// ListOrigin, values "v<i>".
func loadList(t *testing.T, drv drivers.Driver, key string, n int) {
	t.Helper()
	const version = 7
	for start := 0; start < n; start += 50_000 {
		tx, _ := drv.Begin(true)
		for i := start; i < min(n, start+50_000); i++ {
			f := binary.BigEndian.AppendUint64(nil, store.ListOrigin+uint64(i))
			if err := tx.Set(codec.AppendSubKey(nil, 0, []byte(key), version, f), fmt.Appendf(nil, "v%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	tx, _ := drv.Begin(true)
	m := codec.Meta{Type: codec.TypeList, Version: version, Size: uint64(n), Head: store.ListOrigin, Tail: store.ListOrigin + uint64(n)}
	_ = tx.Set(codec.MetaKey(0, []byte(key)), codec.AppendMeta(nil, m, nil))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestWorkOnMillionElementList asserts storage work, not time: LRANGE 0 99
// reads ~100 entries, LINDEX and LSET in the middle are point operations,
// LINSERT near the tail and LREM near the head move only the short side,
// LTRIM to a few elements copies only those.
func TestWorkOnMillionElementList(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 1,000,000 elements")
	}
	bdb, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	drv := &driverstest.Counting{Driver: bdb}
	const n = 1_000_000
	loadList(t, drv, "big", n)
	h := commandtest.NewWithDriver(t, drv, Commands(), keys.Commands())
	work := func(line, want string, maxReads, maxWrites int64) {
		t.Helper()
		r0, w0 := drv.Reads.Load(), drv.Writes.Load()
		if got := h.Do(line); want != "" && got != want {
			t.Fatalf("%s = %q, want %q", line, got, want)
		}
		r, w := drv.Reads.Load()-r0, drv.Writes.Load()-w0
		t.Logf("%-32s reads %7d writes %7d", line, r, w)
		if r > maxReads || w > maxWrites {
			t.Fatalf("%s: %d reads, %d writes; want at most %d, %d", line, r, w, maxReads, maxWrites)
		}
	}
	lr := h.Do("lrange big 0 99")
	if lr[:6] != "*100\r\n" {
		t.Fatalf("LRANGE reply %q...", lr[:20])
	}
	work("lrange big 0 99", lr, 102, 0)
	work("lrange big -100 -1", "", 102, 0)
	work("lindex big 500000", "$7\r\nv500000\r\n", 2, 0)
	work("lset big 500000 x", "+OK\r\n", 2, 2)
	work("linsert big before v999990 new", ":1000001\r\n", 1_000_001, 13)
	work("lrem big 1 v5", ":1\r\n", 14, 8)
	work("llen big", ":1000000\r\n", 1, 0)
	work("ltrim big 10 19", "+OK\r\n", 12, 12)
	work("lrange big 0 -1", "", 11, 0)
	work("llen big", ":10\r\n", 1, 0)
}
