package store

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/rekv/rekv/codec"
)

// TestMetaSlotLayout: a meta cache slot is 128 bytes, what a look-up of a
// string reads first (the inline key, its length, type, flags, expiry,
// version) sits in its first 64, and a cache's slots start on a 128-byte
// boundary once it holds more than 128 entries (see metaEntry).
func TestMetaSlotLayout(t *testing.T) {
	var s clockSlot[string, metaEntry]
	if n := unsafe.Sizeof(s); n != 128 {
		t.Fatalf("a meta cache slot is %d bytes, want 128", n)
	}
	for name, end := range map[string]uintptr{
		"key":      unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.key) + unsafe.Sizeof(s.val.key),
		"keyLen":   unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.keyLen) + 1,
		"typ":      unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.typ) + 1,
		"flags":    unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.flags) + 1,
		"expireAt": unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.expireAt) + 8,
		"version":  unsafe.Offsetof(s.val) + unsafe.Offsetof(s.val.version) + 8,
	} {
		if end > 64 {
			t.Errorf("the slot's %s ends at byte %d, past its first cache line", name, end)
		}
	}
	c := NewMetaCache(1000)
	for i := range 129 {
		c.put(fmt.Sprintf("k%d", i), cached{exists: true}, 0)
	}
	if at := uintptr(unsafe.Pointer(&c.metas.slots[0])); at%128 != 0 {
		t.Fatalf("a cache of 129 entries has its slots at %#x, not on a 128-byte boundary", at)
	}
}

// TestMetaEntryPayload: an entry gives back the payload it was given:
// none, empty, one byte, the longest cached; a longer one (never given)
// is dropped with its loaded mark, so the value is read from the store.
func TestMetaEntryPayload(t *testing.T) {
	long := bytes.Repeat([]byte("v"), MaxCachedPayload+1)
	for _, tc := range []struct {
		name    string
		payload []byte
		loaded  bool
	}{
		{"none", nil, false},
		{"empty", []byte{}, true},
		{"one byte", []byte("x"), true},
		{"longest", long[:MaxCachedPayload], true},
		{"too long", long, false},
	} {
		in := cached{meta: codec.Meta{Type: codec.TypeString, Version: 7}, exists: true, payload: tc.payload, loaded: tc.payload != nil}
		e := pack(in)
		out := e.unpack()
		want := tc.payload
		if !tc.loaded {
			want = nil
		}
		if out.loaded != tc.loaded || !bytes.Equal(out.payload, want) || (out.payload == nil) != (want == nil) || out.meta.Version != 7 || !out.exists {
			t.Errorf("%s: unpacked payload %q (nil %v), loaded %v, version %d; want %q (nil %v), loaded %v", tc.name,
				out.payload, out.payload == nil, out.loaded, out.meta.Version, want, want == nil, tc.loaded)
		}
		if len(out.payload) > 0 && unsafe.SliceData(out.payload) != unsafe.SliceData(tc.payload) {
			t.Errorf("%s: the payload was copied, not held", tc.name)
		}
	}
}
