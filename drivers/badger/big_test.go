package badger

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rekv/rekv/drivers"
)

// openBig opens a store whose transactions go big after about 1,500
// entries (a 1 MiB memtable).
func openBig(t *testing.T, dir string, maxTxn int64) *DB {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	d, err := Open(Options{Dir: dir, Durability: DurabilityNo, MemTableSize: 1 << 20, MaxTxnBytes: maxTxn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func mustUpdate(t *testing.T, d *DB, fn func(tx drivers.Txn) error) {
	t.Helper()
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// scan returns "k=v" for each key of [start, end) in a new snapshot.
func scan(t *testing.T, tx drivers.Txn, start, end string, opts drivers.IterOptions) []string {
	t.Helper()
	var out []string
	err := tx.Iterate([]byte(start), []byte(end), opts, func(k, v []byte) (bool, error) {
		out = append(out, string(k)+"="+string(v))
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func countPrefix(t *testing.T, d *DB, start, end string) int {
	t.Helper()
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	return len(scan(t, tx, start, end, drivers.IterOptions{KeysOnly: true}))
}

// bigWrites fills tx past Badger's limits: 20,000 new keys, an existing
// key overwritten, one deleted, one written then deleted.
func bigWrites(t *testing.T, tx drivers.Txn) {
	t.Helper()
	for i := 0; i < 20_000; i++ {
		if err := tx.Set([]byte(fmt.Sprintf("n%05d", i)), []byte(fmt.Sprint("v", i))); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	for _, err := range []error{tx.Set([]byte("k500"), []byte("new")), tx.Delete([]byte("k100")),
		tx.Set([]byte("n99999"), []byte("x")), tx.Delete([]byte("n99999"))} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func seedOld(t *testing.T, d *DB) {
	mustUpdate(t, d, func(tx drivers.Txn) error {
		for i := 100; i < 1000; i++ {
			if err := tx.Set([]byte(fmt.Sprint("k", i)), []byte("old")); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestBigTransaction(t *testing.T) {
	d := openBig(t, "", 64<<20)
	seedOld(t, d)
	before, _ := d.Begin(false)
	defer before.Rollback()
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	bigWrites(t, tx)
	if tx.(*txn).big == nil {
		t.Fatal("20,000 writes did not go past Badger's limits: the test tests nothing")
	}
	// Its own reads see all of it.
	if v, err := tx.Get([]byte("n19999")); err != nil || string(v) != "v19999" {
		t.Fatalf("Get n19999 = %q, %v", v, err)
	}
	if _, err := tx.Get([]byte("k100")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("Get of a deleted key: %v", err)
	}
	if _, err := tx.Get([]byte("n99999")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("Get of a key written then deleted: %v", err)
	}
	got, err := tx.BatchGet([][]byte{[]byte("k500"), []byte("k100"), []byte("n00000")})
	if err != nil || string(got[0]) != "new" || got[1] != nil || string(got[2]) != "v0" {
		t.Fatalf("BatchGet = %q, %v", got, err)
	}
	if ks := scan(t, tx, "k", "l", drivers.IterOptions{}); len(ks) != 899 || ks[0] != "k101=old" || ks[399] != "k500=new" {
		t.Fatalf("forward scan: %d keys, %v ... %v", len(ks), ks[:2], ks[399])
	}
	if ks := scan(t, tx, "k499", "k502", drivers.IterOptions{Reverse: true}); fmt.Sprint(ks) != "[k501=old k500=new k499=old]" {
		t.Fatalf("reverse scan = %v", ks)
	}
	if ks := scan(t, tx, "n", "o", drivers.IterOptions{Reverse: true, Limit: 3}); fmt.Sprint(ks) != "[n19999=v19999 n19998=v19998 n19997=v19997]" {
		t.Fatalf("reverse limit = %v", ks)
	}
	if ks := scan(t, tx, "n", "o", drivers.IterOptions{}); len(ks) != 20_000 || ks[0] != "n00000=v0" {
		t.Fatalf("the new keys: %d", len(ks))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// A snapshot from before sees none of it; a new one all of it.
	if ks := scan(t, before, "n", "o", drivers.IterOptions{}); len(ks) != 0 {
		t.Fatalf("an older snapshot sees %d new keys", len(ks))
	}
	after, _ := d.Begin(false)
	defer after.Rollback()
	if ks := scan(t, after, "n", "o", drivers.IterOptions{}); len(ks) != 20_000 {
		t.Fatalf("after commit: %d new keys", len(ks))
	}
	if v, err := after.Get([]byte("k500")); err != nil || string(v) != "new" {
		t.Fatalf("k500 = %q, %v", v, err)
	}
	if _, err := after.Get([]byte("k100")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("k100: %v", err)
	}
	if n := countPrefix(t, d, string(journalPrefix), string(journalPrefix)+"\xff"); n != 0 {
		t.Fatalf("%d journal keys left", n)
	}
}

func TestBigTransactionConflict(t *testing.T) {
	d := openBig(t, "", 64<<20)
	seedOld(t, d)
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	if _, err := tx.Get([]byte("k200")); err != nil {
		t.Fatal(err)
	}
	bigWrites(t, tx)
	mustUpdate(t, d, func(o drivers.Txn) error { return o.Set([]byte("k200"), []byte("theirs")) })
	if err := tx.Commit(); !errors.Is(err, drivers.ErrConflict) {
		t.Fatalf("commit after a conflicting write: %v", err)
	}
	if n := countPrefix(t, d, "n", "o"); n != 0 {
		t.Fatalf("%d keys of the refused transaction are visible", n)
	}
	if n := countPrefix(t, d, string(journalPrefix), string(journalPrefix)+"\xff"); n != 0 {
		t.Fatalf("%d journal keys left", n)
	}
}

func TestBigTransactionTooBig(t *testing.T) {
	d := openBig(t, "", 1<<20)
	tx, _ := d.Begin(true)
	defer tx.Rollback()
	var err error
	for i := 0; i < 1_000_000 && err == nil; i++ {
		err = tx.Set([]byte(fmt.Sprintf("n%07d", i)), make([]byte, 100))
	}
	if !errors.Is(err, drivers.ErrTxnTooBig) {
		t.Fatalf("got %v, want ErrTxnTooBig past MaxTxnBytes", err)
	}
}

var errCrash = errors.New("crash")

// TestBigTransactionCrash: a stop after the marker's commit (the journal
// is applied at the next start) and one before it (the journal is
// dropped).
func TestBigTransactionCrash(t *testing.T) {
	dir := t.TempDir()
	d := openBig(t, dir, 64<<20)
	seedOld(t, d)
	d.afterMarker = func() error { return errCrash }
	tx, _ := d.Begin(true)
	bigWrites(t, tx)
	if err := tx.Commit(); !errors.Is(err, errCrash) {
		t.Fatalf("commit: %v", err)
	}
	tx.Rollback()
	if n := countPrefix(t, d, "n", "o"); n >= 20_000 {
		t.Fatalf("the overlay was applied before the crash: the test tests nothing (%d)", n)
	}
	d.afterMarker = nil
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = openBig(t, dir, 64<<20)
	if n := countPrefix(t, d, "n", "o"); n != 20_000 {
		t.Fatalf("after restart: %d of 20,000 keys", n)
	}
	tx, _ = d.Begin(false)
	if v, err := tx.Get([]byte("k500")); err != nil || string(v) != "new" {
		t.Fatalf("k500 = %q, %v", v, err)
	}
	if _, err := tx.Get([]byte("k100")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("k100: %v", err)
	}
	tx.Rollback()
	if n := countPrefix(t, d, string(journalPrefix), string(journalPrefix)+"\xff"); n != 0 {
		t.Fatalf("%d journal keys left", n)
	}

	// A journal without its marker: a stop before the commit.
	wb := d.db.NewWriteBatch()
	for i := 0; i < 100; i++ {
		if err := wb.Set(journalKey(7, 0, uint64(i)), journalEntry(fmt.Sprint("lost", i), overlayEntry{val: []byte("x")})); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = openBig(t, dir, 64<<20)
	if n := countPrefix(t, d, "lost", "losu"); n != 0 {
		t.Fatalf("an unmarked journal was applied: %d keys", n)
	}
	if n := countPrefix(t, d, string(journalPrefix), string(journalPrefix)+"\xff"); n != 0 {
		t.Fatalf("%d journal keys left", n)
	}
}
