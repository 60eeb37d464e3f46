package rcms_test

import (
	"strconv"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rcms"
)

// RedisBloom's dimensions for an error rate and probability: width
// ceil(2/error), depth ceil(log10(prob)/log10(0.5)) in single precision.
func TestDims(t *testing.T) {
	for _, c := range []struct {
		e, p float64
		w, d uint64
	}{{0.001, 0.01, 2000, 7}, {0.01, 0.001, 200, 10}, {0.5, 0.5, 4, 1}, {0.1, 0.25, 20, 2}} {
		if w, d := rcms.Dims(c.e, c.p); w != c.w || d != c.d {
			t.Errorf("Dims(%v, %v) = %d x %d, want %d x %d", c.e, c.p, w, d, c.w, c.d)
		}
	}
}

// Estimates never fall below the true counts and stay within the
// sketch's bound (error x total with probability 1 - prob) for most
// items; merges add counts with weights; counters saturate.
func TestSketch(t *testing.T) {
	st := storetest.New(t)
	tx := st.Begin()
	w, d := rcms.Dims(0.001, 0.01)
	s, err := rcms.Create(tx, []byte("s"), w, d)
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]uint64{}
	for i := range 20000 {
		item := "item:" + strconv.Itoa(i%3000)
		n := uint64(1 + i%7)
		if _, err := s.IncrBy([]byte(item), n); err != nil {
			t.Fatal(err)
		}
		truth[item] += n
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	var total uint64
	for _, n := range truth {
		total += n
	}
	if s.Count() != total {
		t.Fatalf("count %d, want %d", s.Count(), total)
	}
	over := 0
	for item, n := range truth {
		est, err := s.Query([]byte(item))
		if err != nil || est < n {
			t.Fatalf("%s: estimate %d below its count %d (%v)", item, est, n, err)
		}
		if float64(est-n) > 0.001*float64(total) {
			over++
		}
	}
	if float64(over) > 0.01*float64(len(truth)) {
		t.Fatalf("%d of %d estimates beyond error x total", over, len(truth))
	}
	st.Commit(tx)

	tx = st.Begin()
	a, _ := rcms.Open(tx, []byte("s"))
	b, _ := rcms.Create(tx, []byte("b"), w, d)
	if _, err := b.IncrBy([]byte("x"), 5); err != nil {
		t.Fatal(err)
	}
	dst, _ := rcms.Create(tx, []byte("dst"), w, d)
	if err := dst.Merge([]*rcms.Sketch{a, b}, []int64{2, 3}); err != nil {
		t.Fatal(err)
	}
	if got, _ := dst.Query([]byte("x")); got < 15 {
		t.Fatalf("merged estimate of x: %d", got)
	}
	if dst.Count() != 2*total+15 {
		t.Fatalf("merged count %d", dst.Count())
	}
	if err := dst.Merge([]*rcms.Sketch{b}, []int64{-1}); err == nil {
		t.Fatal("a merge to negative counts was accepted")
	}
	sat, _ := rcms.Create(tx, []byte("sat"), 4, 2)
	if _, err := sat.IncrBy([]byte("y"), rcms.CellMax-1); err != nil {
		t.Fatal(err)
	}
	if _, err := sat.IncrBy([]byte("y"), 5); err != rcms.ErrOverflow {
		t.Fatalf("overflow: %v", err)
	}
	if got, _ := sat.Query([]byte("y")); got != rcms.CellMax {
		t.Fatalf("saturated at %d", got)
	}
	st.Commit(tx)
}
