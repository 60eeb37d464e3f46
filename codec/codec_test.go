package codec

import (
	"bytes"
	"encoding/hex"
	"math"
	"sort"
	"testing"
)

func TestMetaRoundTrip(t *testing.T) {
	cases := []struct {
		name    string
		m       Meta
		payload []byte
	}{
		{"string", Meta{Type: TypeString, ExpireAt: 1700000000123, Version: 42}, []byte("hello")},
		{"empty string", Meta{Type: TypeString, Version: 1}, nil},
		{"hash", Meta{Type: TypeHash, Version: 7, Size: 1000000}, nil},
		{"set", Meta{Type: TypeSet, Version: 8, Size: 3}, nil},
		{"zset", Meta{Type: TypeZSet, ExpireAt: 5, Version: 9, Size: 1}, nil},
		{"list", Meta{Type: TypeList, Version: 10, Size: 2, Head: 1 << 63, Tail: 1<<63 + 2}, nil},
		{"chunked string", Meta{Type: TypeString, ExpireAt: 7, Version: 11, Size: 1 << 32, Chunked: true}, nil},
		{"raw string", Meta{Type: TypeString, ExpireAt: 7, Version: 11, Converted: true}, []byte("1234")},
		{"converted set", Meta{Type: TypeSet, Version: 8, Size: 3, Converted: true}, nil},
		{"converted hash", Meta{Type: TypeHash, Version: 8, Size: 3, Converted: true}, nil},
		{"converted zset", Meta{Type: TypeZSet, Version: 8, Size: 3, Converted: true}, nil},
		{"converted hash with field TTLs", Meta{Type: TypeHash, Version: 12, Size: 5, FieldTTL: 1700000000999, Converted: true}, nil},
		{"hash with field TTLs", Meta{Type: TypeHash, ExpireAt: 9, Version: 12, Size: 5, FieldTTL: 1700000000999}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enc := AppendMeta(nil, c.m, c.payload)
			if n := MetaLen(c.m, c.payload); n != len(enc) {
				t.Fatalf("MetaLen = %d, encoding has %d bytes", n, len(enc))
			}
			got, payload, err := DecodeMeta(enc)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.m {
				t.Fatalf("meta = %+v, want %+v", got, c.m)
			}
			if !bytes.Equal(payload, c.payload) {
				t.Fatalf("payload = %q, want %q", payload, c.payload)
			}
		})
	}
}

// TestGolden pins the on-disk bytes: a change here breaks stored data.
func TestGolden(t *testing.T) {
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"meta key", MetaKey(3, []byte("ab")), "6d036162"},
		{"string meta", AppendMeta(nil, Meta{Type: TypeString, ExpireAt: 0x0102, Version: 0x0a}, []byte("v")),
			"01" + "0000000000000102" + "000000000000000a" + "76"},
		{"raw string meta", AppendMeta(nil, Meta{Type: TypeString, Version: 0x0a, Converted: true}, []byte("v")),
			"21" + "0000000000000000" + "000000000000000a" + "76"},
		{"converted set meta", AppendMeta(nil, Meta{Type: TypeSet, Version: 1, Size: 2, Converted: true}, nil),
			"24" + "0000000000000000" + "0000000000000001" + "0000000000000002"},
		{"converted hash with field TTLs meta", AppendMeta(nil, Meta{Type: TypeHash, Version: 1, Size: 2, FieldTTL: 3, Converted: true}, nil),
			"32" + "0000000000000000" + "0000000000000001" + "0000000000000002" + "0000000000000003"},
		{"hash meta", AppendMeta(nil, Meta{Type: TypeHash, Version: 1, Size: 2}, nil),
			"02" + "0000000000000000" + "0000000000000001" + "0000000000000002"},
		{"list meta", AppendMeta(nil, Meta{Type: TypeList, Version: 1, Size: 1, Head: 5, Tail: 6}, nil),
			"03" + "0000000000000000" + "0000000000000001" + "0000000000000001" + "0000000000000005" + "0000000000000006"},
		{"sub-key", AppendSubKey(nil, 0, []byte("k"), 2, []byte("f")), "6400" + "00000001" + "6b" + "0000000000000002" + "66"},
		{"score key", AppendScoreKey(nil, 1, []byte("k"), 2, 1.5, []byte("m")),
			"7a01" + "00000001" + "6b" + "0000000000000002" + "bff8000000000000" + "6d"},
		{"ttl key", TTLKey(0x10, 2, []byte("k")), "74" + "0000000000000010" + "02" + "6b"},
		{"chunked string meta", AppendMeta(nil, Meta{Type: TypeString, Version: 3, Size: 0x10000, Chunked: true}, nil),
			"11" + "0000000000000000" + "0000000000000003" + "0000000000010000"},
		{"chunk field", ChunkField(5), "0000000000000005"},
		{"garbage key", GarbageKey(0, []byte("k"), 9), "6700" + "00000001" + "6b" + "0000000000000009"},
		{"score -1", u64(EncodeScore(-1)), "400fffffffffffff"},
		{"score +0", u64(EncodeScore(0)), "8000000000000000"},
		{"score -0", u64(EncodeScore(math.Copysign(0, -1))), "7fffffffffffffff"},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(c.got); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func u64(v uint64) []byte {
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

func TestScoreOrder(t *testing.T) {
	vals := []float64{math.Inf(-1), -math.MaxFloat64, -1e10, -1.5, -1, -math.SmallestNonzeroFloat64,
		math.Copysign(0, -1), 0, math.SmallestNonzeroFloat64, 1, 1.5, 1e10, math.MaxFloat64, math.Inf(1)}
	for i := 1; i < len(vals); i++ {
		a, b := EncodeScore(vals[i-1]), EncodeScore(vals[i])
		if a >= b {
			t.Errorf("EncodeScore(%v)=%x not < EncodeScore(%v)=%x", vals[i-1], a, vals[i], b)
		}
	}
	for _, v := range vals {
		if got := DecodeScore(EncodeScore(v)); math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("round trip %v -> %v", v, got)
		}
	}
}

func TestMetaKeyOrderFollowsUserKeys(t *testing.T) {
	keys := []string{"", "a", "a\x00", "ab", "b", "\xff"}
	var enc [][]byte
	for _, k := range keys {
		enc = append(enc, MetaKey(0, []byte(k)))
	}
	if !sort.SliceIsSorted(enc, func(i, j int) bool { return bytes.Compare(enc[i], enc[j]) < 0 }) {
		t.Fatal("meta keys are not ordered as user keys")
	}
	start, end := MetaRange(0)
	for _, k := range enc {
		if bytes.Compare(k, start) < 0 || bytes.Compare(k, end) >= 0 {
			t.Fatalf("%x outside db range", k)
		}
	}
	if bytes.Compare(MetaKey(1, nil), end) < 0 {
		t.Fatal("db 1 overlaps db 0")
	}
}

// TestFieldTTLKeys: a hash's field TTL records stay inside its version's
// score range (the GC, COPY and RENAME handle them with it), order by
// time, and the hash-TTL index orders by time like the TTL index.
func TestFieldTTLKeys(t *testing.T) {
	p := ScoreKeyPrefix(3, []byte("h"), 7)
	end := PrefixEnd(p)
	for _, k := range [][]byte{FieldTTLKey(3, []byte("h"), 7, []byte("f")), FieldOrderKey(3, []byte("h"), 7, 5, []byte("f"))} {
		if !bytes.HasPrefix(k, p) || bytes.Compare(k, end) >= 0 {
			t.Fatalf("%q outside the version's score range", k)
		}
	}
	a := FieldOrderKey(3, []byte("h"), 7, 5, []byte("zz"))
	b := FieldOrderKey(3, []byte("h"), 7, 6, []byte("a"))
	if bytes.Compare(a, b) >= 0 {
		t.Fatal("field order keys do not sort by time")
	}
	at, f, err := DecodeFieldOrderSuffix(b[len(FieldOrderPrefix(3, []byte("h"), 7)):])
	if err != nil || at != 6 || string(f) != "a" {
		t.Fatalf("decode: %d %q %v", at, f, err)
	}
	k := HashTTLKey(1000, 2, []byte("key"))
	at, db, key, err := DecodeHashTTLKey(k)
	if err != nil || at != 1000 || db != 2 || string(key) != "key" {
		t.Fatalf("hash ttl key: %d %d %q %v", at, db, key, err)
	}
	start, stop := HashTTLRangeUntil(1000)
	if bytes.Compare(k, start) < 0 || bytes.Compare(k, stop) >= 0 {
		t.Fatal("an entry due at now is outside HashTTLRangeUntil(now)")
	}
	if k2 := HashTTLKey(1001, 0, nil); bytes.Compare(k2, stop) < 0 {
		t.Fatal("an entry due later is inside HashTTLRangeUntil(now)")
	}
}

func TestTTLKeyOrderAndRange(t *testing.T) {
	a, b := TTLKey(100, 0, []byte("zzz")), TTLKey(101, 0, []byte("a"))
	if bytes.Compare(a, b) >= 0 {
		t.Fatal("ttl keys not ordered by time")
	}
	start, end := TTLRangeUntil(100)
	if bytes.Compare(a, start) < 0 || bytes.Compare(a, end) >= 0 || bytes.Compare(b, end) < 0 {
		t.Fatal("TTLRangeUntil bounds wrong")
	}
	at, db, k, err := DecodeTTLKey(a)
	if err != nil || at != 100 || db != 0 || string(k) != "zzz" {
		t.Fatalf("decode: %v %v %q %v", at, db, k, err)
	}
}

func TestSubKeysOfVersionsDoNotInterleave(t *testing.T) {
	// A key that is a prefix of another must not share sub-key ranges.
	p1 := SubKeyPrefix(0, []byte("a"), 1)
	other := AppendSubKey(nil, 0, []byte("ab"), 1, []byte("x"))
	if bytes.HasPrefix(other, p1) {
		t.Fatal("sub-key of 'ab' falls under prefix of 'a'")
	}
	db, key, ver, field, err := DecodeSubKey(AppendSubKey(nil, 4, []byte("key"), 77, []byte("fld")))
	if err != nil || db != 4 || string(key) != "key" || ver != 77 || string(field) != "fld" {
		t.Fatalf("DecodeSubKey: %v %q %v %q %v", db, key, ver, field, err)
	}
	gdb, gkey, gver, err := DecodeGarbageKey(GarbageKey(4, []byte("key"), 77))
	if err != nil || gdb != 4 || string(gkey) != "key" || gver != 77 {
		t.Fatal("DecodeGarbageKey round trip failed")
	}
}

func TestPrefixEnd(t *testing.T) {
	cases := []struct{ in, want []byte }{
		{[]byte("ab"), []byte("ac")},
		{[]byte{'a', 0xff}, []byte("b")},
		{[]byte{0xff, 0xff}, nil},
	}
	for _, c := range cases {
		if got := PrefixEnd(c.in); !bytes.Equal(got, c.want) {
			t.Errorf("PrefixEnd(%x) = %x, want %x", c.in, got, c.want)
		}
	}
}

func TestDecodeMetaRejectsCorrupt(t *testing.T) {
	bad := [][]byte{
		nil,
		{0x01},
		append([]byte{0x11}, make([]byte, 16)...),       // chunked string without length
		append([]byte{0x12}, make([]byte, 24)...),       // a hash with field TTLs has size and field TTL
		append([]byte{0x12}, make([]byte, 32)...),       // a zero field TTL is encoding 0
		append([]byte{0x14}, make([]byte, 24)...),       // encoding 1 is for strings and hashes only
		append([]byte{0x31}, make([]byte, 24)...),       // unknown encoding
		append([]byte{0x26}, make([]byte, 48)...),       // encoding 2 is not for streams
		append([]byte{0x23}, make([]byte, 40)...),       // nor lists
		append([]byte{0x31}, make([]byte, 24)...),       // a chunked string is raw already
		append([]byte{0x32}, make([]byte, 24)...),       // a converted hash with field TTLs has its field TTL
		append([]byte{0x07}, make([]byte, 16)...),       // unknown type
		append([]byte{0x02}, make([]byte, 16)...),       // hash without size
		append([]byte{0x03}, make([]byte, 16+8)...),     // list without head/tail
		append([]byte{0x01, 0x80}, make([]byte, 15)...), // negative expireAt
	}
	for i, b := range bad {
		if _, _, err := DecodeMeta(b); err != ErrCorrupt {
			t.Errorf("case %d: err = %v, want ErrCorrupt", i, err)
		}
	}
}

func FuzzDecodeMeta(f *testing.F) {
	f.Add(AppendMeta(nil, Meta{Type: TypeString, Version: 1}, []byte("x")))
	f.Add(AppendMeta(nil, Meta{Type: TypeList, Version: 1, Size: 1, Head: 1, Tail: 2}, nil))
	f.Add(AppendMeta(nil, Meta{Type: TypeHash, Version: 1, Size: 9}, nil))
	f.Add(AppendMeta(nil, Meta{Type: TypeStream, Version: 1, Size: 2, Stream: StreamMeta{LastID: StreamID{5, 1}, EntriesAdded: 3}}, nil))
	f.Add(AppendMeta(nil, Meta{Type: TypeStream, Version: 1, Size: 2, Stream: StreamMeta{LastID: StreamID{5, 1}, EntriesAdded: 3,
		Tail: StreamNode{First: StreamID{5, 0}, Last: StreamID{5, 1}, Live: 2, Bytes: 40}}}, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, payload, err := DecodeMeta(b)
		if err != nil {
			return
		}
		// Whatever decodes must re-encode to the same bytes.
		if n := MetaLen(m, payload); n != len(b) {
			t.Fatalf("MetaLen = %d, encoding has %d bytes", n, len(b))
		}
		if re := AppendMeta(nil, m, payload); !bytes.Equal(re, b) {
			t.Fatalf("re-encode %x != %x", re, b)
		}
	})
}

func FuzzDecodeKeys(f *testing.F) {
	f.Add(AppendSubKey(nil, 0, []byte("k"), 1, []byte("f")))
	f.Add(GarbageKey(1, []byte("key"), 2))
	f.Add(TTLKey(5, 0, []byte("k")))
	f.Add(AppendScoreKey(nil, 1, []byte("z"), 3, -2.5, []byte("m")))
	f.Fuzz(func(t *testing.T, b []byte) {
		if db, key, ver, field, err := DecodeSubKey(b); err == nil {
			if re := AppendSubKey(nil, db, key, ver, field); !bytes.Equal(re, b) {
				t.Fatalf("sub-key re-encode %x != %x", re, b)
			}
		}
		if db, key, ver, err := DecodeGarbageKey(b); err == nil {
			if re := GarbageKey(db, key, ver); !bytes.Equal(re, b) {
				t.Fatalf("garbage re-encode %x != %x", re, b)
			}
		}
		if db, key, ver, rest, err := DecodeScoreKey(b); err == nil {
			if re := append(ScoreKeyPrefix(db, key, ver), rest...); !bytes.Equal(re, b) {
				t.Fatalf("score key re-encode %x != %x", re, b)
			}
		}
		if at, db, key, err := DecodeTTLKey(b); err == nil {
			if re := TTLKey(at, db, key); !bytes.Equal(re, b) {
				t.Fatalf("ttl re-encode %x != %x", re, b)
			}
		}
	})
}

func FuzzScoreOrder(f *testing.F) {
	f.Add(1.0, -1.0)
	f.Add(0.0, math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, a, b float64) {
		if math.IsNaN(a) || math.IsNaN(b) {
			return
		}
		ea, eb := EncodeScore(a), EncodeScore(b)
		if a < b && ea >= eb || a > b && ea <= eb {
			t.Fatalf("order broken: %v %v -> %x %x", a, b, ea, eb)
		}
	})
}

func TestStreamMetaAndFields(t *testing.T) {
	m := Meta{Type: TypeStream, ExpireAt: 5, Version: 7, Size: 3, Stream: StreamMeta{
		LastID: StreamID{Ms: 10, Seq: 2}, MaxDeletedID: StreamID{Ms: 9, Seq: 1}, EntriesAdded: 4,
		Tail: StreamNode{First: StreamID{8, 0}, Last: StreamID{10, 2}, Live: 2, Deleted: 1, Bytes: 70, Fields: 1, FieldsHash: 99}}}
	enc := AppendMeta(nil, m, nil)
	got, payload, err := DecodeMeta(enc)
	if err != nil || got != m || payload != nil || len(enc) != MetaLen(m, nil) {
		t.Fatalf("stream meta round trip: %+v %q %v", got, payload, err)
	}
	// A meta written before nodes were kept: no tail node.
	legacy := enc[:metaFixed+8*TypeStream.Info().MetaFields]
	if got, _, err := DecodeMeta(legacy); err != nil || !got.Stream.Tail.Empty() || got.Stream.EntriesAdded != 4 || got.Size != 3 {
		t.Fatalf("legacy stream meta: %+v %v", got, err)
	}
	node := StreamNode{First: StreamID{3, 4}, Last: StreamID{5, 6}, Live: 7, Deleted: 8}
	if got, err := DecodeStreamNode(StreamNodeField(node.First), AppendStreamNode(nil, node)); err != nil || got != node {
		t.Fatalf("stream node round trip: %+v %v", got, err)
	}
	if _, err := DecodeStreamNode(StreamEntryField(node.First), AppendStreamNode(nil, node)); err == nil {
		t.Error("an entry field decoded as a node")
	}
	if _, _, err := DecodeMeta(AppendMeta(nil, m, nil)[:40]); err == nil {
		t.Error("a truncated stream meta decoded")
	}
	if TypeStream.String() != "stream" || ParseType("stream") != TypeStream || !TypeStream.IsCollection() {
		t.Error("stream type name or class")
	}
	ids := []StreamID{{0, 1}, {9, 0}, {10, 0}, {10, 1}, {1 << 40, 0}, {^uint64(0), ^uint64(0)}}
	for i, id := range ids {
		f := StreamEntryField(id)
		back, err := DecodeStreamEntryField(f)
		if err != nil || back != id {
			t.Fatalf("entry field %v: %v %v", id, back, err)
		}
		if i > 0 && bytes.Compare(StreamEntryField(ids[i-1]), f) >= 0 {
			t.Errorf("entry fields out of order at %v", id)
		}
	}
	pairs := [][]byte{[]byte("f"), []byte(""), []byte("field"), []byte("value")}
	back, err := DecodeStreamFields(AppendStreamFields(nil, pairs))
	if err != nil || len(back) != 4 || string(back[2]) != "field" || len(back[1]) != 0 {
		t.Fatalf("fields round trip: %q %v", back, err)
	}
	for _, bad := range [][]byte{nil, {0, 0, 0, 1}, {0, 0, 0, 1, 0, 0, 0, 9, 'x'}, {0xff, 0xff, 0xff, 0xff}} {
		if _, err := DecodeStreamFields(bad); err == nil {
			t.Errorf("DecodeStreamFields(%q) accepted", bad)
		}
	}
}

func FuzzDecodeStreamFields(f *testing.F) {
	f.Add(AppendStreamFields(nil, [][]byte{[]byte("f"), []byte("v")}))
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, err := DecodeStreamFields(b)
		if err != nil {
			return
		}
		if re := AppendStreamFields(nil, fields); !bytes.Equal(re, b) {
			t.Fatalf("re-encode %x != %x", re, b)
		}
	})
}

// TestListFieldOrder: list fields round-trip and sort as their indexes,
// and a field of another length is not a list index.
func TestListFieldOrder(t *testing.T) {
	idx := []uint64{0, 1, 255, 256, 1 << 62, math.MaxUint64 - 1, math.MaxUint64}
	for k, i := range idx {
		f := ListField(i)
		if got, ok := DecodeListField(f); !ok || got != i {
			t.Fatalf("DecodeListField(ListField(%d)) = %d, %v", i, got, ok)
		}
		if k > 0 && bytes.Compare(ListField(idx[k-1]), f) >= 0 {
			t.Fatalf("ListField(%d) does not sort before ListField(%d)", idx[k-1], i)
		}
	}
	for _, f := range [][]byte{nil, {1}, make([]byte, 9)} {
		if _, ok := DecodeListField(f); ok {
			t.Fatalf("DecodeListField(%x) accepted", f)
		}
	}
}
