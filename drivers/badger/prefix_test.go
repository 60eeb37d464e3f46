package badger

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestRangePrefix: every key of [start, end) has the range's prefix, and
// the prefix of [g, h) is g (so an iterator stops at the first key past
// it). Random ranges over a small alphabet, with 0xff among its bytes.
func TestRangePrefix(t *testing.T) {
	if p := rangePrefix([]byte{'g'}, []byte{'h'}); string(p) != "g" {
		t.Fatalf("prefix of [g, h) = %q", p)
	}
	if p := rangePrefix([]byte("m\x00ab"), []byte("m\x01")); string(p) != "m\x00" {
		t.Fatalf("prefix of [m0ab, m1) = %q", p)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alpha := []byte{0, 1, 2, 0xfe, 0xff}
	word := func() []byte {
		b := make([]byte, rng.IntN(4))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return b
	}
	for range 200000 {
		start, end, k := word(), word(), word()
		if bytes.Compare(start, end) >= 0 || bytes.Compare(k, start) < 0 || bytes.Compare(k, end) >= 0 {
			continue
		}
		if p := rangePrefix(start, end); !bytes.HasPrefix(k, p) {
			t.Fatalf("key %x in [%x, %x) lacks the prefix %x", k, start, end, p)
		}
	}
}
