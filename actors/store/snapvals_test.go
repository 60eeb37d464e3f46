package store

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rekv/rekv/drivers"
)

// countingSnap is a Snapshotter over a fixed map that counts the reads
// that reach it.
type countingSnap struct {
	data    map[string][]byte
	gets    int
	batch   [][]byte // keys of the BatchGets that reached it
	begun   int      // transactions begun
	beginAt uint64   // the stamp the last began at
}

func (c *countingSnap) ReadStamp() func() (uint64, error) {
	return func() (uint64, error) { return 7, nil }
}

func (c *countingSnap) BeginAt(at uint64) (drivers.Txn, error) {
	c.begun++
	c.beginAt = at
	return &countingTxn{c}, nil
}

type countingTxn struct{ c *countingSnap }

func (t *countingTxn) Get(k []byte) ([]byte, error) {
	t.c.gets++
	if v, ok := t.c.data[string(k)]; ok {
		return append([]byte(nil), v...), nil
	}
	return nil, drivers.ErrNotFound
}

func (t *countingTxn) BatchGet(keys [][]byte) ([][]byte, error) {
	t.c.batch = append(t.c.batch, keys...)
	out := make([][]byte, len(keys))
	for i, k := range keys {
		if v, ok := t.c.data[string(k)]; ok {
			out[i] = append(make([]byte, 0, len(v)), v...)
		}
	}
	return out, nil
}

func (t *countingTxn) Set([]byte, []byte) error { return drivers.ErrClosed }
func (t *countingTxn) Delete([]byte) error      { return drivers.ErrClosed }
func (t *countingTxn) Iterate([]byte, []byte, drivers.IterOptions, func(k, v []byte) (bool, error)) error {
	return nil
}
func (t *countingTxn) Commit() error { return nil }
func (t *countingTxn) Rollback()     {}

func TestSnapshotValues(t *testing.T) {
	c := &countingSnap{data: map[string][]byte{"a": []byte("1"), "b": {}, "z": []byte("26")}}
	var sv SnapshotValues
	if err := sv.Fetch(c, 7, [][]byte{[]byte("a"), []byte("b"), []byte("a"), []byte("c")}); err != nil {
		t.Fatal(err)
	}
	if len(c.batch) != 3 {
		t.Fatalf("fetch read %q, want a, b, c once each", c.batch)
	}
	c.batch, c.begun = nil, 0
	tx := &valuesTxn{vals: &sv, sn: c, at: 7}

	v, err := tx.Get([]byte("a"))
	if err != nil || string(v) != "1" {
		t.Fatalf("Get(a) = %q, %v", v, err)
	}
	v[0] = 'x' // a reader's change must not reach the others
	if v, _ := tx.Get([]byte("a")); string(v) != "1" {
		t.Fatalf("Get(a) after a reader changed its copy = %q", v)
	}
	if v, err := tx.Get([]byte("b")); err != nil || v == nil || len(v) != 0 {
		t.Fatalf("Get(b), an empty value = %q, %v", v, err)
	}
	if _, err := tx.Get([]byte("c")); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("Get(c), fetched missing = %v, want ErrNotFound", err)
	}
	if c.gets != 0 || len(c.batch) != 0 || c.begun != 0 {
		t.Fatalf("fetched keys reached the store: %d gets, %q, %d transactions begun", c.gets, c.batch, c.begun)
	}
	if v, err := tx.Get([]byte("z")); err != nil || string(v) != "26" || c.gets != 1 {
		t.Fatalf("Get(z), not fetched = %q, %v after %d gets", v, err, c.gets)
	}
	if c.begun != 1 || c.beginAt != 7 {
		t.Fatalf("a read not fetched began %d transactions, the last at %d: want one at 7", c.begun, c.beginAt)
	}

	got, err := tx.BatchGet([][]byte{[]byte("c"), []byte("z"), []byte("a"), []byte("y")})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{nil, []byte("26"), []byte("1"), nil}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) || (got[i] == nil) != (want[i] == nil) {
			t.Fatalf("BatchGet = %q, want %q", got, want)
		}
	}
	if len(c.batch) != 2 || string(c.batch[0]) != "z" || string(c.batch[1]) != "y" {
		t.Fatalf("BatchGet read %q from the store, want only z and y", c.batch)
	}
}
