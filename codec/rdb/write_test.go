package rdb

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/rekv/rekv/codec"
)

// A written file reads back as written: auxiliary fields, functions,
// keys in their databases with their expiries and values.
func TestFileWriter(t *testing.T) {
	var buf bytes.Buffer
	f := NewFileWriter(&buf, [][2]string{{"redis-ver", "7.0.15"}, {"aof-base", "0"}})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.Function([]byte(library)))
	must(f.Entry(0, []byte("s"), 0, DumpString([]byte("hello"))))
	must(f.Entry(0, []byte("n"), 1893456000000, DumpString([]byte("12345"))))
	must(f.Entry(0, []byte("l"), 0, DumpCollection(TypeList, [][]byte{[]byte("a"), []byte("b")}, nil)))
	must(f.Entry(3, []byte("h"), 1893456000000, DumpCollection(TypeHash, [][]byte{[]byte("f"), []byte("v")}, nil)))
	must(f.Entry(3, []byte("z"), 0, DumpCollection(TypeZSet2, [][]byte{[]byte("m")}, []float64{2.5})))
	must(f.Entry(3, []byte("t"), 0, DumpCollection(TypeSet, [][]byte{[]byte("x")}, nil)))
	st := &Stream{LastID: codec.StreamID{Ms: 5, Seq: 1}, EntriesAdded: 1,
		Entries: []StreamEntry{{ID: codec.StreamID{Ms: 5, Seq: 1}, Fields: [][]byte{[]byte("a"), []byte("1")}}}}
	must(f.Entry(3, []byte("x"), 0, DumpStream(st)))
	n, err := f.Close()
	must(err)
	if n != int64(buf.Len()) {
		t.Fatalf("Close says %d bytes, wrote %d", n, buf.Len())
	}
	got, v, err := readAll(buf.Bytes())
	_, want := sampleFile()
	want = append(want, `3 "x" 0 {19 []}`)
	if err != nil || v != Version || !reflect.DeepEqual(got, want) {
		t.Fatalf("read back: version %d, %v\n got %q\nwant %q", v, err, got, want)
	}

	// A hash with field expiries needs a newer version than the file's;
	// a damaged payload is refused.
	f = NewFileWriter(&bytes.Buffer{}, nil)
	if err := f.Entry(0, []byte("h"), 0, DumpHashTTL([][]byte{[]byte("f"), []byte("v")}, []int64{1893456000000})); !errors.Is(err, ErrTooNew) {
		t.Fatalf("hash with field TTLs: %v", err)
	}
	bad := DumpString([]byte("v"))
	bad[len(bad)-1] ^= 1
	if err := f.Entry(0, []byte("k"), 0, bad); !errors.Is(err, ErrChecksum) {
		t.Fatalf("a damaged payload: %v", err)
	}
}
