package chunked_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/chunked"
	"github.com/rekv/rekv/codec"
)

func field(i uint64) []byte { return binary.BigEndian.AppendUint64([]byte{1}, i) }

// Writes across chunk boundaries read back before and after Flush and in
// another transaction; never-written bytes are zeros; Load skips chunks
// of zeros; Drop removes every chunk.
func TestBytes(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	c, err := tx.Open([]byte("k"), codec.TypeCMS, true)
	if err != nil {
		t.Fatal(err)
	}
	b := chunked.New(c, 8, 30, field)
	if err := b.Write(5, []byte("abcdefghij")); err != nil { // chunks 0 and 1
		t.Fatal(err)
	}
	want := append(append(make([]byte, 5), "abcdefghij"...), make([]byte, 15)...)
	if got, _ := b.Range(0, 30); !bytes.Equal(got, want) {
		t.Fatalf("before Flush: %q", got)
	}
	if !b.Changed() {
		t.Fatal("a write left nothing to flush")
	}
	if err := b.Flush(); err != nil || b.Changed() {
		t.Fatal(err)
	}
	if err := c.Grow(0); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)

	tx = st.Begin()
	c, _ = tx.Open([]byte("k"), codec.TypeCMS, false)
	b = chunked.New(c, 8, 30, field)
	if got, _ := b.Range(3, 14); !bytes.Equal(got, want[3:17]) {
		t.Fatalf("range: %q", got)
	}
	if got, _ := b.Read(24, 6); !bytes.Equal(got, make([]byte, 6)) {
		t.Fatalf("the last, short chunk: %q", got)
	}
	field2 := func(i uint64) []byte { return binary.BigEndian.AppendUint64([]byte{2}, i) }
	l := chunked.New(c, 8, 30, field2)
	data := append(make([]byte, 16), []byte("0123456789abcd")...)
	if err := l.Load(data); err != nil {
		t.Fatal(err)
	}
	stored := 0
	_ = c.Scan(field2(0), field2(4), false, 0, func(_, _ []byte) (bool, error) { stored++; return true, nil })
	if stored != 2 {
		t.Fatalf("%d chunks stored of which 2 are not zeros", stored)
	}
	if got, _ := l.Range(0, 30); !bytes.Equal(got, data) {
		t.Fatalf("loaded: %q", got)
	}
	if err := l.Drop(); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Range(0, 30); !bytes.Equal(got, make([]byte, 30)) {
		t.Fatalf("after Drop: %q", got)
	}
	st.Commit(tx)
}
