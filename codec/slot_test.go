package codec

import (
	"bytes"
	"testing"
)

// TestSlotEncoding: every length's bounds round-trip, encode in the
// documented bytes, and sort as numbers; slots below 128 are the single
// byte of the layout before slots were widened.
func TestSlotEncoding(t *testing.T) {
	cases := []struct {
		s    Slot
		want []byte
	}{
		{0, []byte{0}}, {15, []byte{15}}, {127, []byte{0x7f}},
		{128, []byte{0x80, 0}}, {16511, []byte{0xbf, 0xff}},
		{16512, []byte{0xc0, 0, 0}}, {2113663, []byte{0xdf, 0xff, 0xff}},
		{2113664, []byte{0xe0, 0, 0, 0}}, {MaxSlot, []byte{0xef, 0xff, 0xff, 0xff}},
	}
	var prev []byte
	for _, tc := range cases {
		got := AppendSlot(nil, tc.s)
		if !bytes.Equal(got, tc.want) || SlotLen(tc.s) != len(got) {
			t.Errorf("slot %d: % x (len %d), want % x", tc.s, got, SlotLen(tc.s), tc.want)
		}
		s, n, err := ReadSlot(append(got, 0x55))
		if s != tc.s || n != len(got) || err != nil {
			t.Errorf("slot %d read back as %d, %d bytes, %v", tc.s, s, n, err)
		}
		if prev != nil && bytes.Compare(prev, got) >= 0 {
			t.Errorf("slot %d (% x) does not sort after % x", tc.s, got, prev)
		}
		prev = got
	}
	for _, b := range [][]byte{nil, {0x80}, {0xc0, 0}, {0xe0, 0, 0}, {0xf0, 0, 0, 0}} {
		if _, _, err := ReadSlot(b); err == nil {
			t.Errorf("ReadSlot(% x): no error", b)
		}
	}
}

// FuzzSlotOrder: any two slots' encodings compare as the slots do, and
// neither is a prefix of the other.
func FuzzSlotOrder(f *testing.F) {
	f.Add(uint32(127), uint32(128))
	f.Add(uint32(16511), uint32(16512))
	f.Add(uint32(2113663), uint32(2113664))
	f.Fuzz(func(t *testing.T, a, b uint32) {
		sa, sb := Slot(a)%(MaxSlot+1), Slot(b)%(MaxSlot+1)
		ea, eb := AppendSlot(nil, sa), AppendSlot(nil, sb)
		want := 0
		if sa < sb {
			want = -1
		} else if sa > sb {
			want = 1
		}
		if got := bytes.Compare(ea, eb); got != want {
			t.Fatalf("slots %d, %d: encodings % x, % x compare %d", sa, sb, ea, eb, got)
		}
		if sa != sb && (bytes.HasPrefix(ea, eb) || bytes.HasPrefix(eb, ea)) {
			t.Fatalf("slots %d, %d: % x and % x, one a prefix of the other", sa, sb, ea, eb)
		}
		if s, n, err := ReadSlot(ea); s != sa || n != len(ea) || err != nil {
			t.Fatalf("slot %d read back as %d (%d bytes, %v)", sa, s, n, err)
		}
	})
}

// TestLayoutOfSmallSlots: for slots below 128 every key is byte for byte
// what releases before the widening wrote (one slot byte), and a wide
// slot round-trips through each key's decoder.
func TestLayoutOfSmallSlots(t *testing.T) {
	v7 := []byte{0, 0, 0, 0, 0, 0, 0, 7}
	for _, tc := range []struct {
		name      string
		got, want []byte
	}{
		{"meta", MetaKey(3, []byte("k")), []byte("m\x03k")},
		{"stamp", StampKey(3, []byte("k")), []byte("w\x03k")},
		{"sub-key", AppendSubKey(nil, 2, []byte("h"), 7, []byte("f")), append(append([]byte("d\x02\x00\x00\x00\x01h"), v7...), 'f')},
		{"ttl", TTLKey(7, 5, []byte("k")), append(append([]byte("t"), v7...), 5, 'k')},
		{"garbage", GarbageKey(1, []byte("k"), 7), append([]byte("g\x01\x00\x00\x00\x01k"), v7...)},
		{"record key", FlushMarkerKey(5), []byte("sflush\x05")},
		{"record", EncodeDBRecord(7, 3), append(append([]byte{}, v7...), 3)},
	} {
		if !bytes.Equal(tc.got, tc.want) {
			t.Errorf("%s: % x, want % x", tc.name, tc.got, tc.want)
		}
	}
	wide := Slot(70000)
	if db, key, err := DecodeMetaKey(MetaKey(wide, []byte("k"))); db != wide || string(key) != "k" || err != nil {
		t.Errorf("meta key of slot %d: %d %q %v", wide, db, key, err)
	}
	if db, key, v, f, err := DecodeSubKey(AppendSubKey(nil, wide, []byte("h"), 7, []byte("f"))); db != wide || string(key) != "h" || v != 7 || string(f) != "f" || err != nil {
		t.Errorf("sub-key of slot %d: %d %q %d %q %v", wide, db, key, v, f, err)
	}
	if at, db, key, err := DecodeTTLKey(TTLKey(9, wide, []byte("k"))); at != 9 || db != wide || string(key) != "k" || err != nil {
		t.Errorf("ttl key of slot %d: %d %d %q %v", wide, at, db, key, err)
	}
	if m, s, err := DecodeDBRecord(4, EncodeDBRecord(7, wide)); m != 7 || s != wide || err != nil {
		t.Errorf("record naming slot %d: %d %d %v", wide, m, s, err)
	}
	if m, s, err := DecodeDBRecord(4, v7); m != 7 || s != 4 || err != nil {
		t.Errorf("a record of a marker alone: %d %d %v", m, s, err)
	}
	start, end := MetaRange(wide)
	if k := MetaKey(wide, []byte("\xff\xff")); bytes.Compare(k, start) < 0 || bytes.Compare(k, end) >= 0 {
		t.Errorf("meta key % x outside its slot's range [% x, % x)", k, start, end)
	}
}

// TestNamespaceLayout: namespace 0's databases are the slots every
// release used; the last namespace's last database is MaxSlot; a
// definition round-trips.
func TestNamespaceLayout(t *testing.T) {
	if NamespaceDB(0, 15) != 15 || NamespaceDB(1, 0) != 16 || NamespaceDB(MaxNamespace, 15) != MaxSlot {
		t.Errorf("databases: ns 0 db 15 -> %d, ns 1 db 0 -> %d, last -> %d (MaxSlot %d)",
			NamespaceDB(0, 15), NamespaceDB(1, 0), NamespaceDB(MaxNamespace, 15), MaxSlot)
	}
	if id, token, err := DecodeNamespace(EncodeNamespace(7, "s3cret")); id != 7 || token != "s3cret" || err != nil {
		t.Errorf("definition: %d %q %v", id, token, err)
	}
	if _, _, err := DecodeNamespace([]byte{1}); err == nil {
		t.Error("a 1-byte definition decoded")
	}
	if bytes.HasPrefix(NamespaceIDKey(), NamespacePrefix()) {
		t.Error("the id key is under the definitions' prefix")
	}
}
