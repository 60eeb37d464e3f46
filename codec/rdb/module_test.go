package rdb

import (
	"errors"
	"reflect"
	"testing"
)

// A Bloom filter dumps as RedisBloom saves one and decodes back whole;
// another module's value is ErrModule.
func TestBloomRoundTrip(t *testing.T) {
	b := &Bloom{Items: 3, Options: 5, Expansion: 2, Links: []BloomLink{
		{Capacity: 100, Error: 0.005, Hashes: 8, BPE: 11.03, Bits: 1152, Data: make([]byte, 144), Items: 2},
		{Capacity: 200, Error: 0.0025, Hashes: 9, BPE: 12.47, Bits: 2560, Data: []byte("bits"), Items: 1},
	}}
	b.Links[0].Data[7] = 0x81
	body, err := Verify(DumpBloom(b))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(body)
	if err != nil || v.Type != TypeModule2 || !reflect.DeepEqual(v.Bloom, b) {
		t.Fatalf("decoded %+v (%v), want %+v", v.Bloom, err, b)
	}
	// The module id names MBbloom-- at encoding version 4.
	if id := moduleID("MBbloom--", 4); id&1023 != 4 || id>>10 == 0 {
		t.Fatalf("module id %x", id)
	}
	c := &CMS{Width: 2, Depth: 2, Count: 5, Cells: []byte{1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}}
	body, err = Verify(DumpCMS(c))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Decode(body); err != nil || v.Type != TypeModule2 || !reflect.DeepEqual(v.CMS, c) {
		t.Fatalf("decoded sketch %+v (%v), want %+v", v.CMS, err, c)
	}
	cf := &Cuckoo{Items: 3, Buckets: 4, Deletes: 1, BucketSize: 2, MaxIterations: 20, Expansion: 1,
		FilterBuckets: []uint64{4, 4}, Data: [][]byte{{1, 0, 0, 9, 0, 0, 0, 0}, {0, 0, 7, 0, 0, 0, 0, 0}}}
	body, err = Verify(DumpCuckoo(cf))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Decode(body); err != nil || !reflect.DeepEqual(v.Cuckoo, cf) {
		t.Fatalf("decoded Cuckoo filter %+v (%v), want %+v", v.Cuckoo, err, cf)
	}
	td := &TDigest{Compression: 100, Min: 1, Max: 3, Cap: 610, Merged: 2, Compressions: 1, MergedWeight: 3,
		Means: []float64{1, 2.5}, Weights: []float64{1, 2}}
	body, err = Verify(DumpTDigest(td))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Decode(body); err != nil || !reflect.DeepEqual(v.TDigest, td) {
		t.Fatalf("decoded t-digest %+v (%v), want %+v", v.TDigest, err, td)
	}
	td.Merged, td.Cap = 1<<40, 1<<42 // more nodes than the payload holds
	if body, err = Verify(DumpTDigest(td)); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(body); err == nil {
		t.Fatal("a t-digest announcing 2^40 nodes decoded")
	}
	body, err = Verify(DumpJSON([]byte(`{"a":[1,2.5]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Decode(body); err != nil || string(v.JSON) != `{"a":[1,2.5]}` {
		t.Fatalf("decoded JSON %q (%v)", v.JSON, err)
	}
	tk := &TopK{K: 2, Width: 3, Depth: 1, RNG: 99, Decay: 0.9, Buckets: make([]byte, 24), Heap: []byte("heap")}
	body, err = Verify(DumpTopK(tk))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Decode(body); err != nil || !reflect.DeepEqual(v.TopK, tk) {
		t.Fatalf("decoded Top-K %+v (%v), want %+v", v.TopK, err, tk)
	}
	other := Seal(appendLen([]byte{TypeModule2}, moduleID("timeserie", 1)))
	body, _ = Verify(other)
	if _, err := Decode(body); !errors.Is(err, ErrModule) {
		t.Fatalf("another module's value: %v", err)
	}
}
