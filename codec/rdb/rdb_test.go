package rdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/rekv/rekv/codec"
)

func TestCRC64KnownValue(t *testing.T) {
	// The check value of CRC-64/Jones (reflected, init 0, no final xor),
	// the one Redis's crc64 self-test uses.
	if got := CRC64(0, []byte("123456789")); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64 = %#x", got)
	}
}

// Strings of every encoding survive DumpString, Verify and Decode;
// payloads from redis-server are checked in integration/dump_test.go.
func TestStringRoundTrip(t *testing.T) {
	for _, v := range []string{"", "hello", "12", "-129", "65536", "2147483648", "007", "x" + string(bytes.Repeat([]byte("y"), 20000))} {
		p := DumpString([]byte(v))
		body, err := Verify(p)
		if err != nil {
			t.Fatalf("%.20q: %v", v, err)
		}
		got, err := Decode(body)
		if err != nil || string(got.String) != v {
			t.Fatalf("%.20q: decoded %.20q %v", v, got.String, err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	p := DumpString([]byte("hello"))
	bad := append([]byte(nil), p...)
	bad[1] ^= 1
	if _, err := Verify(bad); err != ErrChecksum {
		t.Fatal("flipped bit accepted")
	}
	newer := seal(append([]byte(nil), p[:len(p)-10]...), VersionFieldTTL+1)
	if _, err := Verify(newer); err != ErrChecksum {
		t.Fatal("newer version accepted")
	}
	if _, err := Verify([]byte("short")); err != ErrChecksum {
		t.Fatal("short payload accepted")
	}
}

func TestLZF(t *testing.T) {
	// "aaaaaaaaaa": literal 'a', then a back reference of 9 bytes at
	// distance 1: ctrl = (9-2)<<5 = 0xe0 (len 7 -> extra byte 0), offset 0.
	got, err := lzfDecompress([]byte{0x00, 'a', 0xe0, 0x00, 0x00}, 10)
	if err != nil || string(got) != "aaaaaaaaaa" {
		t.Fatalf("%q %v", got, err)
	}
	for _, in := range [][]byte{{0x05, 'a'}, {0x20, 0x05}, {0xe0}} {
		if _, err := lzfDecompress(in, 10); err != ErrFormat {
			t.Errorf("%x accepted", in)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(DumpString([]byte("hello")))
	f.Add(DumpString([]byte("123")))
	f.Add([]byte{0, 0xc3, 0x05, 0x0a, 0x00, 'a', 0xe0, 0x00, 0x00})
	f.Add(DumpCollection(TypeHash, [][]byte{[]byte("f"), []byte("1")}, nil))
	f.Add([]byte{TypeHashListpack, 0x0b, 0x0b, 0, 0, 0, 2, 0, 0x81, 'f', 2, 0x01, 1, 0xff})
	f.Add([]byte{TypeListQuick2, 1, 2, 0x09, 0x09, 0, 0, 0, 1, 0, 0x05, 1, 0xff})
	f.Add(DumpHashTTL([][]byte{[]byte("f"), []byte("1"), []byte("g"), []byte("2")}, []int64{1700000000000, 0}))
	if body, err := Verify([]byte(redisStream)); err == nil {
		f.Add(body)
	}
	if body, err := Verify(DumpBloom(&Bloom{Items: 1, Options: 5, Expansion: 2, Links: []BloomLink{
		{Capacity: 10, Error: 0.005, Hashes: 8, BPE: 11.03, Bits: 128, Data: make([]byte, 16), Items: 1}}})); err == nil {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Decode(b)
		if body, err := Verify(b); err == nil {
			_, _ = Decode(body)
		}
	})
}

func TestCollectionsRoundTrip(t *testing.T) {
	elems := [][]byte{[]byte("a"), []byte("12"), []byte(""), bytes.Repeat([]byte("z"), 70)}
	for _, typ := range []byte{TypeList, TypeSet, TypeHash} {
		body, err := Verify(DumpCollection(typ, elems, nil))
		if err != nil {
			t.Fatal(err)
		}
		v, err := Decode(body)
		if err != nil || v.Type != typ || len(v.Elems) != len(elems) || string(v.Elems[3]) != string(elems[3]) {
			t.Fatalf("type %d: %+v %v", typ, v, err)
		}
	}
	body, _ := Verify(DumpCollection(TypeZSet2, elems[:2], []float64{1.5, -2}))
	if v, err := Decode(body); err != nil || v.Scores[1] != -2 || string(v.Elems[0]) != "a" {
		t.Fatalf("zset: %+v %v", v, err)
	}
}

// A listpack with every entry encoding, as Redis writes them.
func TestListpackEncodings(t *testing.T) {
	var lp []byte
	add := func(entry []byte) {
		lp = append(lp, entry...)
		lp = append(lp, byte(len(entry))) // back-length of a short entry
	}
	add([]byte{0x05})                   // 7-bit uint 5
	add([]byte{0x83, 'a', 'b', 'c'})    // 6-bit string "abc"
	add([]byte{0xdf, 0xff})             // 13-bit int -1
	add([]byte{0xf1, 0x00, 0x80})       // int16 -32768
	add([]byte{0xf2, 0xff, 0xff, 0x7f}) // int24 8388607
	add([]byte{0xf3, 0xfe, 0xff, 0xff, 0xff})
	add([]byte{0xf4, 1, 0, 0, 0, 0, 0, 0, 0})
	head := binary.LittleEndian.AppendUint32(nil, uint32(len(lp)+7))
	head = binary.LittleEndian.AppendUint16(head, 7)
	lp = append(append(head, lp...), 0xff)
	es, err := listpack(lp)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%s", es); got != "[5 abc -1 -32768 8388607 -2 1]" {
		t.Fatalf("entries %s", got)
	}
	if _, err := listpack(lp[:len(lp)-2]); err != ErrFormat {
		t.Fatal("truncated listpack accepted")
	}
	// A set of Redis 7.2's listpack encoding decodes as a set.
	v, err := Decode(appendString([]byte{TypeSetListpack}, lp))
	if err != nil || v.Type != TypeSet || fmt.Sprintf("%s", v.Elems) != "[5 abc -1 -32768 8388607 -2 1]" {
		t.Fatalf("listpack set: %+v %v", v, err)
	}
	if _, err := Decode(appendString([]byte{TypeSetListpack}, lp[:len(lp)-2])); err != ErrFormat {
		t.Fatal("a listpack set cut short decoded")
	}
}

// TestTypeTableRDB checks the RDB type of each stored type in codec's
// descriptor table is the one this package writes and reads for it.
func TestTypeTableRDB(t *testing.T) {
	want := map[codec.Type]byte{codec.TypeString: TypeString, codec.TypeHash: TypeHash, codec.TypeList: TypeList,
		codec.TypeSet: TypeSet, codec.TypeZSet: TypeZSet2, codec.TypeStream: TypeStream2, codec.TypeBloom: TypeModule2, codec.TypeCMS: TypeModule2, codec.TypeCuckoo: TypeModule2, codec.TypeTopK: TypeModule2, codec.TypeTDigest: TypeModule2, codec.TypeJSON: TypeModule2}
	for _, ty := range codec.Types() {
		w, ok := want[ty]
		if !ok {
			t.Errorf("type %s has no RDB type here", ty)
			continue
		}
		if got := ty.Info().RDB; got != w {
			t.Errorf("type %s: the table says RDB %d, this package writes %d", ty, got, w)
		}
	}
}

// TestHashTTLRoundTrip: a hash with field TTLs dumps as Redis 7.4's
// TypeHashMetadata and reads back, and 7.4's listpack form reads too.
func TestHashTTLRoundTrip(t *testing.T) {
	pairs := [][]byte{[]byte("a"), []byte("1"), []byte("b"), []byte("2"), []byte("c"), []byte("")}
	ttls := []int64{1700000000500, 0, 1700000000000}
	p := DumpHashTTL(pairs, ttls)
	body, err := Verify(p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(body)
	if err != nil || v.Type != TypeHash || fmt.Sprintf("%q", v.Elems) != fmt.Sprintf("%q", pairs) || !reflect.DeepEqual(v.TTLs, ttls) {
		t.Fatalf("decoded %+v, %v", v, err)
	}
	// TypeHashListpackEx: earliest (8), then a listpack of triplets.
	var w lpWriter
	w.str([]byte("f"))
	w.str([]byte("v"))
	w.int(1700000000000)
	w.str([]byte("g"))
	w.str([]byte("w"))
	w.int(0)
	lp := w.bytes()
	b := binary.LittleEndian.AppendUint64([]byte{TypeHashListpackEx}, 1700000000000)
	b = appendString(b, lp)
	v, err = Decode(b)
	if err != nil || !reflect.DeepEqual(v.TTLs, []int64{1700000000000, 0}) || string(v.Elems[2]) != "g" {
		t.Fatalf("listpack ex decoded %+v, %v", v, err)
	}
	if _, err := Decode(b[:len(b)-3]); err == nil {
		t.Fatal("a truncated body decoded")
	}
}

// A group of a first-format stream gets the entries-read Redis 7.0 works
// out on loading it.
func TestEstimateEntriesRead(t *testing.T) {
	id := func(ms uint64) codec.StreamID { return codec.StreamID{Ms: ms} }
	two := &Stream{Entries: []StreamEntry{{ID: id(5)}, {ID: id(6)}}, FirstID: id(5), LastID: id(6), EntriesAdded: 2}
	for _, tc := range []struct {
		s    *Stream
		id   codec.StreamID
		want int64
	}{
		{&Stream{}, id(3), 0},                                // nothing ever added
		{&Stream{LastID: id(6), EntriesAdded: 4}, id(5), 4},  // empty: at or before the last ID
		{&Stream{LastID: id(6), EntriesAdded: 4}, id(7), -1}, // empty: a future ID
		{two, id(6), 2},                          // the last entry
		{two, id(7), -1},                         // a future ID
		{two, id(0), 0},                          // before the first entry
		{two, id(5), 1},                          // the first entry
		{two, codec.StreamID{Ms: 5, Seq: 1}, -1}, // between entries
		{&Stream{Entries: two.Entries, FirstID: id(5), LastID: id(6), EntriesAdded: 2, MaxDeletedID: id(5)}, id(0), -1},
	} {
		if got := estimateEntriesRead(tc.s, tc.id); got != tc.want {
			t.Errorf("estimate(%+v, %v) = %d, want %d", tc.s, tc.id, got, tc.want)
		}
	}
}
