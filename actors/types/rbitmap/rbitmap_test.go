package rbitmap_test

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// bitAt is the reference bit order: bit 0 is byte 0's top bit.
func bitAt(v []byte, i int64) int {
	if i>>3 >= int64(len(v)) {
		return 0
	}
	return int(v[i>>3]>>(7-uint(i&7))) & 1
}

// sparse builds a string with a few random runs over a long zero range, so
// it is chunked and mostly missing chunks.
func sparse(rng *rand.Rand, n int) []byte {
	v := make([]byte, n)
	for r := 0; r < 6; r++ {
		at := rng.IntN(n)
		for i := at; i < min(n, at+rng.IntN(40)); i++ {
			v[i] = byte(rng.IntN(256))
		}
	}
	if rng.IntN(3) == 0 { // a run of ones, for searches of zeros
		at := rng.IntN(n)
		for i := at; i < min(n, at+rng.IntN(20000)); i++ {
			v[i] = 0xff
		}
	}
	return v
}

func open(t *testing.T, tx *store.Tx, key string) *store.Str {
	t.Helper()
	s, err := tx.OpenString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCountAndPosAgainstNaive compares Count and Pos over random bit ranges
// of inline and chunked strings with a bit-by-bit reference.
func TestCountAndPosAgainstNaive(t *testing.T) {
	st := storetest.New(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 30; round++ {
		tx := st.Begin()
		n := 1 + rng.IntN(50)
		if round%2 == 1 {
			n = 20000 + rng.IntN(40000)
		}
		v := sparse(rng, n)
		if err := tx.SetString([]byte("b"), v, 0); err != nil {
			t.Fatal(err)
		}
		st.Commit(tx)
		tx = st.Begin()
		s := open(t, tx, "b")
		total := int64(n) * 8
		for q := 0; q < 40; q++ {
			from, to := rng.Int64N(total), rng.Int64N(total)
			if q == 0 {
				from, to = 0, total-1
			}
			var want int64
			for i := from; i <= to; i++ {
				want += int64(bitAt(v, i))
			}
			got, err := rbitmap.Count(s, from, to)
			if err != nil || got != want {
				t.Fatalf("len %d: Count(%d, %d) = %d %v, want %d", n, from, to, got, err, want)
			}
			for bit := 0; bit <= 1; bit++ {
				wantPos := int64(-1)
				for i := from; i <= to; i++ {
					if bitAt(v, i) == bit {
						wantPos = i
						break
					}
				}
				got, err := rbitmap.Pos(s, bit, from, to)
				if err != nil || got != wantPos {
					t.Fatalf("len %d: Pos(%d, %d, %d) = %d %v, want %d", n, bit, from, to, got, err, wantPos)
				}
			}
		}
		tx.Rollback()
	}
}

func TestSetGetBitAndApply(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s := open(t, tx, "b")
	offs := []int64{0, 7, 8, 65535, 70001, 1<<32 - 1}
	for _, off := range offs {
		if old, err := rbitmap.SetBit(s, off, 1); err != nil || old != 0 {
			t.Fatalf("SetBit(%d) = %d %v", off, old, err)
		}
	}
	if s.Len() != 1<<29 {
		t.Fatalf("len %d after the last bit", s.Len())
	}
	for _, off := range offs {
		if b, err := rbitmap.GetBit(s, off); err != nil || b != 1 {
			t.Fatalf("GetBit(%d) = %d %v", off, b, err)
		}
		if b, _ := rbitmap.GetBit(s, off+1); b != 0 && off != 7 {
			t.Fatalf("GetBit(%d) = %d", off+1, b)
		}
	}
	if n, err := rbitmap.Count(s, 0, s.Len()*8-1); err != nil || n != int64(len(offs)) {
		t.Fatalf("Count = %d %v", n, err)
	}
	if old, _ := rbitmap.SetBit(s, 7, 0); old != 1 {
		t.Fatal("SetBit did not return the old bit")
	}

	x, y := []byte("\xf0\x0f\xaa"), []byte("\xff\x01")
	_ = tx.SetString([]byte("x"), x, 0)
	_ = tx.SetString([]byte("y"), y, 0)
	srcs := []*store.Str{open(t, tx, "x"), open(t, tx, "y"), open(t, tx, "missing")}
	cases := []struct {
		op   rbitmap.Op
		srcs []*store.Str
		want []byte
	}{
		{rbitmap.And, srcs[:2], []byte{0xf0, 0x01, 0x00}},
		{rbitmap.Or, srcs[:2], []byte{0xff, 0x0f, 0xaa}},
		{rbitmap.Xor, srcs[:2], []byte{0x0f, 0x0e, 0xaa}},
		{rbitmap.Not, srcs[:1], []byte{0x0f, 0xf0, 0x55}},
		{rbitmap.And, srcs, []byte{0, 0, 0}},
		{rbitmap.Or, srcs[2:], []byte{}},
	}
	for i, c := range cases {
		got, err := rbitmap.Apply(c.op, c.srcs)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("case %d: %x %v, want %x", i, got, err, c.want)
		}
	}
}

// TestAddMatchesBigIntegers checks the overflow arithmetic against exact
// arithmetic for every width and policy.
func TestAddMatchesBigIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	edge := []int64{0, 1, -1, 2, -2, 1 << 62, -1 << 63, 1<<63 - 1, 127, -128, 255}
	pick := func() int64 {
		if rng.IntN(2) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return int64(rng.Uint64()) >> rng.IntN(64)
	}
	for i := 0; i < 20000; i++ {
		signed := rng.IntN(2) == 0
		bits := 1 + rng.IntN(64)
		if !signed && bits == 64 {
			bits = 63
		}
		lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(bits))
		hi.Sub(hi, big.NewInt(1))
		if signed {
			lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
			hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
		}
		// old is a value the field can hold, as GET returns it.
		old := pick()
		if signed {
			old = old << (64 - bits) >> (64 - bits)
		} else {
			old = int64(uint64(old) << (64 - bits) >> (64 - bits))
		}
		incr := pick()
		sum := new(big.Int).Add(bigOf(old, signed), big.NewInt(incr))
		f := rbitmap.Field{Bits: bits, Signed: signed}
		inRange := sum.Cmp(lo) >= 0 && sum.Cmp(hi) <= 0
		for _, p := range []rbitmap.Overflow{rbitmap.Wrap, rbitmap.Sat} {
			got, ovf := rbitmap.Add(f, old, incr, p)
			var want *big.Int
			switch {
			case inRange:
				want = sum
			case p == rbitmap.Sat && sum.Cmp(hi) > 0:
				want = hi
			case p == rbitmap.Sat:
				want = lo
			default: // wrap: sum modulo 2^bits, in the field's range
				m := new(big.Int).Lsh(big.NewInt(1), uint(bits))
				want = new(big.Int).Mod(new(big.Int).Sub(sum, lo), m)
				want.Add(want, lo)
			}
			if ovf == inRange || bigOf(got, signed).Cmp(want) != 0 {
				t.Fatalf("%v i%d/u: %d + %d policy %d = %d (ovf %v), want %s", signed, bits, old, incr, p, got, ovf, want)
			}
		}
	}
}

func bigOf(v int64, signed bool) *big.Int {
	if signed {
		return big.NewInt(v)
	}
	return new(big.Int).SetUint64(uint64(v))
}

func TestFieldGetSet(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	s := open(t, tx, "f")
	f := rbitmap.Field{Off: 5, Bits: 12, Signed: true}
	if err := rbitmap.Set(s, f, -3); err != nil {
		t.Fatal(err)
	}
	if v, _ := rbitmap.Get(s, f); v != -3 {
		t.Fatalf("Get = %d", v)
	}
	if v, _ := rbitmap.Get(s, rbitmap.Field{Off: 5, Bits: 12}); v != 4093 {
		t.Fatalf("unsigned Get = %d", v)
	}
	if s.Len() != 3 {
		t.Fatalf("len %d", s.Len())
	}
	if v, _ := rbitmap.Get(s, rbitmap.Field{Off: 100, Bits: 64, Signed: true}); v != 0 {
		t.Fatalf("past the end: %d", v)
	}
}
