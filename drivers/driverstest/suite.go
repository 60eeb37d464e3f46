package driverstest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rekv/rekv/drivers"
)

// Run runs the conformance suite. open returns a new empty store; the suite
// closes it.
func Run(t *testing.T, open func(t *testing.T) drivers.Driver) {
	tests := []struct {
		name string
		fn   func(t *testing.T, d drivers.Driver)
	}{
		{"GetSetDelete", testGetSetDelete},
		{"BatchGet", testBatchGet},
		{"ReadYourWrites", testReadYourWrites},
		{"Rollback", testRollback},
		{"IterateForward", testIterateForward},
		{"IterateReverse", testIterateReverse},
		{"IterateStop", testIterateStop},
		{"Conflict", testConflict},
		{"ReadConflict", testReadConflict},
		{"NoConflictOnDisjointKeys", testDisjoint},
		{"EmptyValues", testEmptyValues},
		{"TxnTooBig", testTxnTooBig},
		{"NextVersionUnique", testNextVersion},
		{"NextVersionsBatched", testNextVersions},
		{"BinaryKeys", testBinaryKeys},
		{"Buffers", testBuffers},
		{"Snapshots", testSnapshots},
		{"PreWrite", testPreWrite},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := open(t)
			defer func() {
				if err := d.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			tc.fn(t, d)
		})
	}
}

func update(t *testing.T, d drivers.Driver, fn func(tx drivers.Txn)) {
	t.Helper()
	tx, err := d.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	fn(tx)
	if err := tx.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

func mustSet(t *testing.T, tx drivers.Txn, k, v string) {
	t.Helper()
	if err := tx.Set([]byte(k), []byte(v)); err != nil {
		t.Fatalf("Set %q: %v", k, err)
	}
}

func get(t *testing.T, d drivers.Driver, k string) (string, bool) {
	t.Helper()
	tx, err := d.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	v, err := tx.Get([]byte(k))
	if errors.Is(err, drivers.ErrNotFound) {
		return "", false
	}
	if err != nil {
		t.Fatalf("Get %q: %v", k, err)
	}
	return string(v), true
}

func testGetSetDelete(t *testing.T, d drivers.Driver) {
	if _, ok := get(t, d, "a"); ok {
		t.Fatal("empty store has a")
	}
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "a", "1"); mustSet(t, tx, "b", "") })
	if v, ok := get(t, d, "a"); !ok || v != "1" {
		t.Fatalf("a = %q %v", v, ok)
	}
	if v, ok := get(t, d, "b"); !ok || v != "" {
		t.Fatalf("empty value b = %q %v", v, ok)
	}
	update(t, d, func(tx drivers.Txn) {
		if err := tx.Delete([]byte("a")); err != nil {
			t.Fatal(err)
		}
		if err := tx.Delete([]byte("missing")); err != nil {
			t.Fatalf("Delete of a missing key: %v", err)
		}
	})
	if _, ok := get(t, d, "a"); ok {
		t.Fatal("a survived Delete")
	}
}

func testBatchGet(t *testing.T, d drivers.Driver) {
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "x", "1"); mustSet(t, tx, "z", "3") })
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	vals, err := tx.BatchGet([][]byte{[]byte("x"), []byte("y"), []byte("z")})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 3 || string(vals[0]) != "1" || vals[1] != nil || string(vals[2]) != "3" {
		t.Fatalf("BatchGet = %q", vals)
	}
}

func testReadYourWrites(t *testing.T, d drivers.Driver) {
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	mustSet(t, tx, "k", "v")
	if v, err := tx.Get([]byte("k")); err != nil || string(v) != "v" {
		t.Fatalf("own write not visible: %q %v", v, err)
	}
	if _, ok := get(t, d, "k"); ok {
		t.Fatal("uncommitted write visible to another transaction")
	}
	if err := tx.Delete([]byte("k")); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Get([]byte("k")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("own delete not visible: %v", err)
	}
}

func testRollback(t *testing.T, d drivers.Driver) {
	tx, _ := d.Begin(true)
	mustSet(t, tx, "k", "v")
	tx.Rollback()
	if _, ok := get(t, d, "k"); ok {
		t.Fatal("rolled back write is visible")
	}
}

func seed(t *testing.T, d drivers.Driver, n int) {
	update(t, d, func(tx drivers.Txn) {
		for i := 0; i < n; i++ {
			mustSet(t, tx, fmt.Sprintf("k%02d", i), fmt.Sprintf("v%d", i))
		}
		mustSet(t, tx, "a-before", "x")
		mustSet(t, tx, "z-after", "x")
	})
}

func collect(t *testing.T, d drivers.Driver, start, end string, opts drivers.IterOptions) []string {
	t.Helper()
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	var out []string
	var e []byte
	if end != "" {
		e = []byte(end)
	}
	err := tx.Iterate([]byte(start), e, opts, func(k, v []byte) (bool, error) {
		out = append(out, string(k)+"="+string(v))
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func testIterateForward(t *testing.T, d drivers.Driver) {
	seed(t, d, 10)
	got := collect(t, d, "k03", "k06", drivers.IterOptions{})
	if fmt.Sprint(got) != "[k03=v3 k04=v4 k05=v5]" {
		t.Fatalf("forward = %v", got)
	}
	got = collect(t, d, "k", "l", drivers.IterOptions{Limit: 2})
	if fmt.Sprint(got) != "[k00=v0 k01=v1]" {
		t.Fatalf("limit = %v", got)
	}
	got = collect(t, d, "k09", "", drivers.IterOptions{})
	if fmt.Sprint(got) != "[k09=v9 z-after=x]" {
		t.Fatalf("open end = %v", got)
	}
	if got := collect(t, d, "k05", "k05", drivers.IterOptions{}); len(got) != 0 {
		t.Fatalf("empty range = %v", got)
	}
	// KeysOnly: the same keys; each value is either nil or the value.
	for _, reverse := range []bool{false, true} {
		var keys []string
		tx, _ := d.Begin(false)
		err := tx.Iterate([]byte("k02"), []byte("k05"), drivers.IterOptions{Reverse: reverse, Limit: 2, KeysOnly: true}, func(k, v []byte) (bool, error) {
			if v != nil && string(v) != "v"+string(k[len(k)-1:]) {
				t.Errorf("keys only: %s = %q", k, v)
			}
			keys = append(keys, string(k))
			return true, nil
		})
		tx.Rollback()
		want := "[k02 k03]"
		if reverse {
			want = "[k04 k03]"
		}
		if err != nil || fmt.Sprint(keys) != want {
			t.Fatalf("keys only (reverse %v) = %v, %v; want %s", reverse, keys, err, want)
		}
	}
}

func testIterateReverse(t *testing.T, d drivers.Driver) {
	seed(t, d, 10)
	got := collect(t, d, "k03", "k06", drivers.IterOptions{Reverse: true})
	if fmt.Sprint(got) != "[k05=v5 k04=v4 k03=v3]" {
		t.Fatalf("reverse = %v", got)
	}
	got = collect(t, d, "k", "l", drivers.IterOptions{Reverse: true, Limit: 2})
	if fmt.Sprint(got) != "[k09=v9 k08=v8]" {
		t.Fatalf("reverse limit = %v", got)
	}
	got = collect(t, d, "k", "k00\x00", drivers.IterOptions{Reverse: true})
	if fmt.Sprint(got) != "[k00=v0]" {
		t.Fatalf("reverse exclusive end = %v", got)
	}
	got = collect(t, d, "k09", "", drivers.IterOptions{Reverse: true})
	if fmt.Sprint(got) != "[z-after=x k09=v9]" {
		t.Fatalf("reverse open end = %v", got)
	}
	// A range [p, p+1) whose end is itself a key, both ways (a driver
	// narrowing its scan to the range's common prefix must keep end's
	// side in mind backwards).
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "k1", "end") })
	got = collect(t, d, "k0", "k1", drivers.IterOptions{Reverse: true, Limit: 3})
	if fmt.Sprint(got) != "[k09=v9 k08=v8 k07=v7]" {
		t.Fatalf("reverse up to an existing end = %v", got)
	}
	got = collect(t, d, "k0", "k1", drivers.IterOptions{})
	if len(got) != 10 || got[9] != "k09=v9" {
		t.Fatalf("forward up to an existing end = %v", got)
	}
	// Uncommitted writes are visible to the transaction's own iteration.
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	mustSet(t, tx, "k035", "new")
	if err := tx.Delete([]byte("k04")); err != nil {
		t.Fatal(err)
	}
	var keys []string
	_ = tx.Iterate([]byte("k03"), []byte("k06"), drivers.IterOptions{Reverse: true}, func(k, _ []byte) (bool, error) {
		keys = append(keys, string(k))
		return true, nil
	})
	if fmt.Sprint(keys) != "[k05 k035 k03]" {
		t.Fatalf("reverse with own writes = %v", keys)
	}
}

func testIterateStop(t *testing.T, d drivers.Driver) {
	seed(t, d, 10)
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	n := 0
	err := tx.Iterate([]byte("k"), []byte("l"), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		n++
		return n < 3, nil
	})
	if err != nil || n != 3 {
		t.Fatalf("stop: n=%d err=%v", n, err)
	}
	boom := errors.New("boom")
	err = tx.Iterate([]byte("k"), []byte("l"), drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		return true, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("callback error not returned: %v", err)
	}
}

func testConflict(t *testing.T, d drivers.Driver) {
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "c", "0") })
	t1, _ := d.Begin(true)
	t2, _ := d.Begin(true)
	defer t1.Rollback()
	defer t2.Rollback()
	if _, err := t1.Get([]byte("c")); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.Get([]byte("c")); err != nil {
		t.Fatal(err)
	}
	mustSet(t, t1, "c", "1")
	mustSet(t, t2, "c", "2")
	if err := t1.Commit(); err != nil {
		t.Fatalf("first commit: %v", err)
	}
	if err := t2.Commit(); !errors.Is(err, drivers.ErrConflict) {
		t.Fatalf("second commit: got %v, want ErrConflict", err)
	}
	if v, _ := get(t, d, "c"); v != "1" {
		t.Fatalf("c = %q after conflict", v)
	}
}

// testReadConflict: t1 reads a (LockRead) and writes b; t2 writes a and
// commits first; t1 must fail, or a decision based on a stale a would land.
func testReadConflict(t *testing.T, d drivers.Driver) {
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "a", "0") })
	t1, _ := d.Begin(true)
	defer t1.Rollback()
	if _, err := t1.Get([]byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := drivers.LockRead(t1, []byte("a")); err != nil {
		t.Fatal(err)
	}
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "a", "1") })
	mustSet(t, t1, "b", "from stale a")
	if err := t1.Commit(); !errors.Is(err, drivers.ErrConflict) {
		t.Fatalf("commit after a concurrent write of a read key: got %v, want ErrConflict", err)
	}
	if _, ok := get(t, d, "b"); ok {
		t.Fatal("the conflicting transaction's write is visible")
	}
	// A read-only use of LockRead commits fine.
	t2, _ := d.Begin(true)
	defer t2.Rollback()
	if err := drivers.LockRead(t2, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(); err != nil {
		t.Fatalf("commit of a transaction that wrote nothing: %v", err)
	}
}

// testEmptyValues: an empty value is stored and read back as empty, not
// as missing, by Get, BatchGet and Iterate.
func testEmptyValues(t *testing.T, d drivers.Driver) {
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "e", "") })
	if v, ok := get(t, d, "e"); !ok || v != "" {
		t.Fatalf("Get e = %q, %v", v, ok)
	}
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	vs, err := tx.BatchGet([][]byte{[]byte("e"), []byte("nope")})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0] == nil || len(vs[0]) != 0 || vs[1] != nil {
		t.Fatalf("BatchGet = %q", vs)
	}
	if got := collect(t, d, "e", "f", drivers.IterOptions{}); len(got) != 1 || got[0] != "e=" {
		t.Fatalf("Iterate = %q", got)
	}
}

func testDisjoint(t *testing.T, d drivers.Driver) {
	t1, _ := d.Begin(true)
	t2, _ := d.Begin(true)
	mustSet(t, t1, "p", "1")
	mustSet(t, t2, "q", "2")
	if err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(); err != nil {
		t.Fatalf("disjoint commit: %v", err)
	}
}

// testTxnTooBig writes 256-byte values (small enough for any driver to
// count them whole) until the driver refuses, bounded at 1 GiB, and checks
// the refusal is ErrTxnTooBig and that nothing leaked.
func testTxnTooBig(t *testing.T, d drivers.Driver) {
	tx, _ := d.Begin(true)
	val := bytes.Repeat([]byte("x"), 256)
	var err error
	for i := 0; i < 1<<22 && err == nil; i++ {
		err = tx.Set([]byte(fmt.Sprintf("big%07d", i)), val)
	}
	if err == nil {
		err = tx.Commit()
	} else {
		tx.Rollback()
	}
	if !errors.Is(err, drivers.ErrTxnTooBig) {
		t.Fatalf("got %v, want ErrTxnTooBig", err)
	}
	if _, ok := get(t, d, "big0000000"); ok {
		t.Fatal("part of a refused transaction is visible")
	}
}

func testNextVersion(t *testing.T, d drivers.Driver) {
	seen := make(map[uint64]bool)
	var last uint64
	for i := 0; i < 10000; i++ {
		v, err := d.NextVersion()
		if err != nil {
			t.Fatal(err)
		}
		if seen[v] || v <= last {
			t.Fatalf("version %d repeated or not increasing (last %d)", v, last)
		}
		seen[v] = true
		last = v
	}
}

// testNextVersions: a driver that batches versions (drivers.VersionBatcher)
// returns as many as asked, increasing, each newer than every version
// returned before the call, by NextVersion or an earlier batch.
func testNextVersions(t *testing.T, d drivers.Driver) {
	b, ok := d.(drivers.VersionBatcher)
	if !ok {
		t.Skip("the driver's NextVersion is local: it does not batch versions")
	}
	last, err := d.NextVersion()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 7, 256, 3} {
		vs, err := b.NextVersions(n)
		if err != nil {
			t.Fatal(err)
		}
		checkVersions(t, "a batch", n, vs, last)
		if last, err = d.NextVersion(); err != nil {
			t.Fatal(err)
		}
		if last <= vs[n-1] {
			t.Fatalf("NextVersion %d after a batch ending at %d", last, vs[n-1])
		}
	}
	for _, n := range []int{0, 1, 5} {
		tx, vs, err := b.BeginWithVersions(n)
		if err != nil {
			t.Fatal(err)
		}
		last = checkVersions(t, "a begin", n, vs, last)
		mustSet(t, tx, fmt.Sprintf("begun%d", n), "v")
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if _, ok := get(t, d, fmt.Sprintf("begun%d", n)); !ok {
			t.Fatalf("a transaction begun with %d versions did not write", n)
		}
	}
}

// checkVersions checks that vs, got from what for n versions, are n,
// increasing, all above last (returned before them), and returns the
// last of them (or last).
func checkVersions(t *testing.T, what string, n int, vs []uint64, last uint64) uint64 {
	t.Helper()
	if len(vs) != n {
		t.Fatalf("%s of %d versions gave %d", what, n, len(vs))
	}
	for _, v := range vs {
		if v <= last {
			t.Fatalf("%s of %d: version %d not above %d, returned before it", what, n, v, last)
		}
		last = v
	}
	return last
}

func testBinaryKeys(t *testing.T, d drivers.Driver) {
	keys := []string{"\x00", "\x00\x00", "\xff", "\xff\xff", "a\x00b"}
	update(t, d, func(tx drivers.Txn) {
		for _, k := range keys {
			mustSet(t, tx, k, k)
		}
	})
	got := collect(t, d, "\x00", "", drivers.IterOptions{})
	want := []string{"\x00=\x00", "\x00\x00=\x00\x00", "a\x00b=a\x00b", "\xff=\xff", "\xff\xff=\xff\xff"}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Fatalf("binary keys = %q", got)
	}
}

// testBuffers: Set copies its arguments (the caller reuses one buffer for
// every key and value, and each write keeps its own bytes), and
// drivers.SetOwned stores what it is given; both for more keys than one
// block of a driver's per-transaction allocations holds, with values of
// many lengths (a few over 512 bytes).
func testBuffers(t *testing.T, d drivers.Driver) {
	const n = 200
	buf := make([]byte, 0, 32)
	val := func(i int) string {
		if i%40 == 39 {
			return fmt.Sprintf("=%d", i) + strings.Repeat("L", 600+i)
		}
		return fmt.Sprintf("=%d", i) + strings.Repeat("s", i%60)
	}
	update(t, d, func(tx drivers.Txn) {
		for i := range n {
			buf = fmt.Appendf(buf[:0], "set%03d", i)
			k := buf[:len(buf):len(buf)]
			v := append(k, val(i)...)[len(k):]
			if err := tx.Set(k, v); err != nil {
				t.Fatal(err)
			}
			if err := drivers.SetOwned(tx, fmt.Appendf(nil, "own%03d", i), fmt.Appendf(nil, "v%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		clear(buf[:cap(buf)])
		if v, err := tx.Get([]byte("set007")); err != nil || string(v) != val(7) {
			t.Fatalf("own write after its buffer was reused: %q %v", v, err)
		}
	})
	for i := range n {
		if v, ok := get(t, d, fmt.Sprintf("set%03d", i)); !ok || v != val(i) {
			t.Fatalf("set%03d = %q %v, want %q", i, v, ok, val(i))
		}
		if v, ok := get(t, d, fmt.Sprintf("own%03d", i)); !ok || v != fmt.Sprintf("v%d", i) {
			t.Fatalf("own%03d = %q %v, want %q", i, v, ok, fmt.Sprintf("v%d", i))
		}
	}
}

// testSnapshots checks drivers.Snapshotter where a driver has it (the
// optional interface is not asked of the others): a read begun at a stamp
// sees the commits that finished before the stamp was asked and none
// after, however late it begins; waiting again gives the same stamp.
func testSnapshots(t *testing.T, d drivers.Driver) {
	sn, ok := d.(drivers.Snapshotter)
	if !ok {
		t.Logf("%T has no snapshots (drivers.Snapshotter is optional)", d)
		return
	}
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "snap", "1") })
	wait := sn.ReadStamp()
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "snap", "2") }) // after the stamp was asked
	ts, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	again, err := wait()
	if err != nil || again != ts {
		t.Fatalf("second wait: %d, %v; want %d", again, err, ts)
	}
	at := func(ts uint64) string {
		tx, err := sn.BeginAt(ts)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		v, err := tx.Get([]byte("snap"))
		if err != nil {
			t.Fatalf("Get at %d: %v", ts, err)
		}
		if err := tx.Set([]byte("snap"), []byte("x")); err == nil {
			t.Fatal("a write in a transaction begun at a snapshot was accepted")
		}
		return string(v)
	}
	later, err := sn.ReadStamp()()
	if err != nil {
		t.Fatal(err)
	}
	// The second commit may or may not be under the first stamp (it
	// finished after the stamp was asked); the first must be, and every
	// commit that finished before a stamp was asked is under it.
	if v := at(ts); v != "1" && v != "2" {
		t.Fatalf("at the first stamp: %q", v)
	}
	if v := at(later); v != "2" {
		t.Fatalf("at a stamp asked after both commits: %q, want 2", v)
	}
	update(t, d, func(tx drivers.Txn) { mustSet(t, tx, "snap", "3") })
	if v := at(later); v != "2" {
		t.Fatalf("a commit after the stamp was seen at it: %q, want 2", v)
	}
}

// testPreWrite: keys pre-written under a prefix are visible to
// transactions begun after PreWrite returns, and not to one begun before;
// the prefix is pending from PreWrite until Settle (twice pre-written,
// twice settled); a key outside the prefix is refused.
func testPreWrite(t *testing.T, d drivers.Driver) {
	pw, ok := d.(drivers.PreWriter)
	if !ok {
		t.Skip("the driver writes everything through transactions")
	}
	before, err := d.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer before.Rollback()
	big := make([]byte, 256<<10)
	for i := range big {
		big[i] = byte(i % 251)
	}
	const n = 64 // 16 MiB: several of the driver's batches
	put := func(yield func(k, v []byte) error) error {
		for i := 0; i < n; i++ {
			if err := yield([]byte(fmt.Sprintf("pw/%d", i)), big); err != nil {
				return err
			}
		}
		return nil
	}
	if pw.Pending([]byte("pw/")) {
		t.Fatal("pending before any PreWrite")
	}
	if err := pw.PreWrite([]byte("pw/"), put); err != nil {
		t.Fatal(err)
	}
	if err := pw.PreWrite([]byte("pw/"), func(yield func(k, v []byte) error) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !pw.Pending([]byte("pw/")) || pw.Pending([]byte("pw/0")) || pw.Pending([]byte("other/")) {
		t.Fatal("Pending does not name exactly the prefix pre-written")
	}
	for i := 0; i < n; i++ {
		v, ok := get(t, d, fmt.Sprintf("pw/%d", i))
		if !ok || v != string(big) {
			t.Fatalf("pw/%d after PreWrite: found %v, %d bytes", i, ok, len(v))
		}
	}
	if _, err := before.Get([]byte("pw/0")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("a transaction begun before PreWrite reads its key: %v", err)
	}
	pw.Settle([]byte("pw/"))
	if !pw.Pending([]byte("pw/")) {
		t.Fatal("not pending after one Settle of two PreWrites")
	}
	pw.Settle([]byte("pw/"))
	if pw.Pending([]byte("pw/")) {
		t.Fatal("pending after Settle")
	}
	err = pw.PreWrite([]byte("pw/"), func(yield func(k, v []byte) error) error { return yield([]byte("elsewhere"), []byte("x")) })
	pw.Settle([]byte("pw/"))
	if err == nil {
		t.Fatal("PreWrite took a key outside its prefix")
	}
	if _, ok := get(t, d, "elsewhere"); ok {
		t.Fatal("a refused pre-write was stored")
	}
}
