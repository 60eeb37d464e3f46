package tracking

import (
	"slices"
	"testing"
)

// TestTable: reads record (key, client) pairs once; taking a key removes
// it with its readers; the last client turning tracking off empties the
// table; Excess names exactly the keys past the limit.
func TestTable(t *testing.T) {
	tb := New()
	if !tb.Idle() {
		t.Fatal("a new table is not idle")
	}
	tb.Lock()
	tb.ClientOnLocked()
	tb.ClientOnLocked()
	tb.RecordLocked(1, 0, [][]byte{[]byte("a"), []byte("b")})
	tb.RecordLocked(2, 0, [][]byte{[]byte("a"), []byte("a")})
	tb.CountLocked()
	tb.Unlock()
	if c, k, i, p := tb.Stats(); c != 2 || k != 2 || i != 3 || p != 0 {
		t.Fatalf("stats = %d clients, %d keys, %d items, %d prefixes; want 2, 2, 3, 0", c, k, i, p)
	}
	tb.Lock()
	tb.RecordLocked(3, 9, [][]byte{[]byte("a")}) // another namespace's a
	if ids := tb.TakeLocked(Key{9, "a"}); len(ids) != 1 {
		t.Errorf("namespace 9's a: %v, want client 3 alone", ids)
	}
	ids := tb.TakeLocked(Key{0, "a"})
	if len(ids) != 2 || tb.TakeLocked(Key{0, "a"}) != nil {
		t.Errorf("take a: %v, then again: want nothing", ids)
	}
	tb.ClientOffLocked()
	if !tb.HasKeysLocked() {
		t.Error("one client still tracks: its keys must stay")
	}
	tb.ClientOffLocked()
	if tb.HasKeysLocked() {
		t.Error("no client tracks: the keys must go")
	}
	tb.Unlock()
	if !tb.Idle() {
		t.Error("no client and no key: not idle")
	}

	tb.SetMaxKeys(2)
	tb.Lock()
	for _, k := range []string{"k1", "k2", "k3", "k4", "k5"} {
		tb.RecordLocked(7, 0, [][]byte{[]byte(k)})
	}
	excess := tb.ExcessLocked()
	for _, k := range excess {
		tb.TakeLocked(k)
	}
	tb.CountLocked()
	tb.Unlock()
	if _, k, _, _ := tb.Stats(); len(excess) != 3 || k != 2 {
		t.Errorf("limit 2 over 5 keys: dropped %v, %d left", excess, k)
	}
}

// TestPrefixes: BCAST prefixes group written keys; a prefix with no
// client left goes.
func TestPrefixes(t *testing.T) {
	tb := New()
	tb.Lock()
	defer tb.Unlock()
	tb.AddPrefixLocked("user:", 1)
	tb.AddPrefixLocked("", 2)
	got := tb.UnderPrefixesLocked([][]byte{[]byte("user:1"), []byte("other")})
	if len(got["user:"]) != 1 || len(got[""]) != 2 {
		t.Errorf("grouped = %q", got)
	}
	tb.RemovePrefixLocked("user:", 1)
	if ids := tb.PrefixClientsLocked("user:"); ids != nil {
		t.Errorf("user: still has %v", ids)
	}
	if got := slices.Collect(func(yield func(int64) bool) {
		for id := range tb.PrefixClientsLocked("") {
			yield(id)
		}
	}); len(got) != 1 || got[0] != 2 {
		t.Errorf("clients of the empty prefix = %v", got)
	}
}
