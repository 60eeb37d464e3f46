package badger

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenWithEmptyFiles: a crash between creating a memtable or value log
// file and sizing it leaves a 0-byte file; Open removes it and opens the
// DB with every committed write, and the DB takes writes and reopens.
func TestOpenWithEmptyFiles(t *testing.T) {
	dir := t.TempDir()
	opt := DefaultOptions(dir).WithLogger(nil)
	db, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(txn *Txn) error { return txn.Set([]byte("before"), []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The next files a writer would create, as a kill -9 leaves them.
	empties := []string{
		filepath.Join(dir, "00099.mem"),
		vlogFilePath(dir, 99),
	}
	for _, f := range empties {
		if err := os.WriteFile(f, nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 2; round++ {
		db, err = Open(opt)
		if err != nil {
			t.Fatalf("round %d: Open with empty files: %v", round, err)
		}
		for _, f := range empties {
			if _, err := os.Stat(f); !os.IsNotExist(err) {
				t.Errorf("round %d: %s was not removed (%v)", round, f, err)
			}
		}
		err = db.View(func(txn *Txn) error {
			item, err := txn.Get([]byte("before"))
			if err != nil {
				return err
			}
			v, err := item.ValueCopy(nil)
			if err == nil && string(v) != "v" {
				t.Errorf("round %d: before = %q", round, v)
			}
			return err
		})
		if err != nil {
			t.Fatalf("round %d: reading a key written before: %v", round, err)
		}
		if err := db.Update(func(txn *Txn) error { return txn.Set([]byte("after"), []byte("w")) }); err != nil {
			t.Fatalf("round %d: a write after Open: %v", round, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenReadOnlyWithEmptyFiles: read-only, the empty files are left
// alone and skipped.
func TestOpenReadOnlyWithEmptyFiles(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(txn *Txn) error { return txn.Set([]byte("k"), []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(dir, "00099.mem")
	if err := os.WriteFile(mem, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	db, err = Open(DefaultOptions(dir).WithLogger(nil).WithReadOnly(true))
	if err != nil {
		t.Fatalf("read-only Open with an empty memtable file: %v", err)
	}
	defer db.Close()
	if err := db.View(func(txn *Txn) error { _, err := txn.Get([]byte("k")); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(mem); err != nil || fi.Size() != 0 {
		t.Fatalf("read-only Open changed the empty file: %v %v", fi, err)
	}
}
