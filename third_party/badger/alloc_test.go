package badger

// Added for rekv (patch 0003): encoding an entry for the write-ahead log
// allocates nothing, and the entry reads back with its checksum.

import (
	"bytes"
	"testing"
)

func TestEncodeEntryAllocatesNothing(t *testing.T) {
	lf := &logFile{}
	var buf bytes.Buffer
	buf.Grow(1 << 10)
	e := &Entry{Key: []byte("a key of some length"), Value: []byte("and its value"), ExpiresAt: 1 << 40, UserMeta: 7}
	allocs := testing.AllocsPerRun(1000, func() {
		buf.Reset()
		if _, err := lf.encodeEntry(&buf, e, 0); err != nil {
			t.Fatal(err)
		}
	})
	// A hash, an io.MultiWriter and the escaping header: 3 allocations
	// a record before.
	if allocs != 0 {
		t.Fatalf("encoding an entry allocated %.1f times, want 0", allocs)
	}

	buf.Reset()
	n, err := lf.encodeEntry(&buf, e, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n != buf.Len() {
		t.Fatalf("encodeEntry reported %d bytes, wrote %d", n, buf.Len())
	}
	r := &safeRead{lf: lf}
	got, err := r.Entry(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the entry does not read back: %v", err)
	}
	if !bytes.Equal(got.Key, e.Key) || !bytes.Equal(got.Value, e.Value) || got.ExpiresAt != e.ExpiresAt || got.UserMeta != e.UserMeta {
		t.Fatalf("read back %q=%q (expires %d, meta %d), want %q=%q (%d, %d)",
			got.Key, got.Value, got.ExpiresAt, got.UserMeta, e.Key, e.Value, e.ExpiresAt, e.UserMeta)
	}
	buf.Bytes()[buf.Len()-6] ^= 1 // a bit of the value flipped
	if _, err := r.Entry(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("an entry whose value changed read back without error; want a checksum mismatch")
	}
}
