package rtdigest_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rtdigest"
)

// checkInvariants: merged centroids in mean order, weights adding up,
// no more nodes than the capacity.
func checkInvariants(t *testing.T, d *rtdigest.Digest) {
	t.Helper()
	if d.Nodes() > d.Cap || int64(len(d.Means)) != d.Nodes() || len(d.Weights) != len(d.Means) {
		t.Fatalf("%d nodes (%d means) for a capacity of %d", d.Nodes(), len(d.Means), d.Cap)
	}
	var merged, unmerged int64
	for i, w := range d.Weights {
		if int64(i) < d.Merged {
			merged += w
			if i > 0 && d.Means[i] < d.Means[i-1] {
				t.Fatalf("centroid %d (%v) below centroid %d (%v)", i, d.Means[i], i-1, d.Means[i-1])
			}
		} else {
			unmerged += w
		}
	}
	if merged != d.MergedWeight || unmerged != d.UnmergedWeight {
		t.Fatalf("weights %d+%d, counted %d+%d", merged, unmerged, d.MergedWeight, d.UnmergedWeight)
	}
}

// rankError is how far, in fractions of the data, the estimate for q
// is from q: the true fraction of sorted at or below est, minus q.
func rankError(sorted []float64, q, est float64) float64 {
	return math.Abs(float64(sort.SearchFloat64s(sorted, est))/float64(len(sorted)) - q)
}

// On 1,000,000 observations (uniform, and a heavy-tailed log-normal), a
// digest of compression 100 estimates quantiles within 3.5% of rank in
// the middle and 0.25% at the 1% and 99% tails, CDF likewise, with
// about 60 centroids; merging ten digests of a tenth each keeps it.
// (RedisBloom's scale bound grows with ln W, so at a million
// observations a middle centroid may hold a fifth of them: these are
// the bounds of its digest, not of t-digests in general.)
func TestAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, gen := range map[string]func() float64{
		"uniform":   func() float64 { return r.Float64() * 1000 },
		"lognormal": func() float64 { return math.Exp(r.NormFloat64() * 2) },
	} {
		t.Run(name, func(t *testing.T) {
			const n = 1_000_000
			data := make([]float64, n)
			whole := rtdigest.New(100)
			parts := make([]*rtdigest.Digest, 10)
			for i := range parts {
				parts[i] = rtdigest.New(100)
			}
			for i := range data {
				data[i] = gen()
				if err := whole.Add(data[i], 1); err != nil {
					t.Fatal(err)
				}
				if err := parts[i%10].Add(data[i], 1); err != nil {
					t.Fatal(err)
				}
			}
			checkInvariants(t, whole)
			merged := rtdigest.New(100)
			for _, p := range parts {
				if err := merged.MergeFrom(p); err != nil {
					t.Fatal(err)
				}
			}
			slices.Sort(data)
			for dname, d := range map[string]*rtdigest.Digest{"whole": whole, "merged": merged} {
				d.Compress()
				checkInvariants(t, d)
				if d.Size() != n || d.Min != data[0] || d.Max != data[n-1] {
					t.Fatalf("%s: size %d, min %v, max %v", dname, d.Size(), d.Min, d.Max)
				}
				if d.Merged > 500 {
					t.Errorf("%s: %d centroids for compression 100", dname, d.Merged)
				}
				worst := 0.0
				for _, q := range []float64{0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999} {
					bound := 0.035
					if q <= 0.01 || q >= 0.99 {
						bound = 0.0025
					}
					if e := rankError(data, q, d.Quantile(q)); e > bound {
						t.Errorf("%s: quantile %v off by %.4f of rank", dname, q, e)
					} else {
						worst = max(worst, e)
					}
					x := data[int(q*n)]
					if e := math.Abs(d.CDF(x) - q); e > bound {
						t.Errorf("%s: CDF at the %v quantile = %v", dname, q, d.CDF(x))
					}
				}
				if d.Quantile(0) != data[0] || d.Quantile(1) != data[n-1] {
					t.Errorf("%s: quantiles 0 and 1 = %v, %v", dname, d.Quantile(0), d.Quantile(1))
				}
				t.Logf("%s %s: %d centroids, worst rank error %.5f", name, dname, d.Merged, worst)
			}
		})
	}
}

// RedisBloom's worked example (test_tdigest.py): 1, 2 2, 3 3 3, 4 4 4 4,
// 5 x5 in a digest of compression 1000 (no centroid merges): quantiles
// land on the observations, CDF counts half of those equal.
func TestSmallExact(t *testing.T) {
	d := rtdigest.New(1000)
	for _, v := range []float64{1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5} {
		if err := d.Add(v, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ x, cdf float64 }{{0, 0}, {1, 0.5 / 15}, {3, 4.5 / 15}, {5, 12.5 / 15}, {6, 1}} {
		if got := d.CDF(c.x); math.Abs(got-c.cdf) > 1e-12 {
			t.Errorf("CDF(%v) = %v, want %v", c.x, got, c.cdf)
		}
	}
	want := []float64{1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5}
	for rank, w := range want {
		if got := d.Quantile(float64(rank) / 15); rank > 0 && got != w {
			t.Errorf("value of rank %d = %v, want %v", rank, got, w)
		}
	}
	if got := d.TrimmedMean(0.1, 0.9); math.Abs(got-49.0/13) > 1e-9 {
		t.Errorf("trimmed mean = %v", got)
	}
	e := rtdigest.New(100)
	if !math.IsNaN(e.CDF(1)) || !math.IsNaN(e.Quantile(0.5)) || !math.IsNaN(e.TrimmedMean(0, 1)) {
		t.Error("an empty digest answered a number")
	}
}

// A digest stored chunk by chunk answers as the one in memory: adding
// through a Sketch (which compresses in place when its nodes fill up)
// over several transactions gives the same nodes as Digest.Add.
func TestSketchMatchesDigest(t *testing.T) {
	st := storetest.New(t)
	r := rand.New(rand.NewPCG(3, 4))
	mem := rtdigest.New(20) // capacity 130: compresses every hundred or so
	tx := st.Begin()
	s, err := rtdigest.Create(tx, []byte("td"), 20)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	for round := range 50 {
		vals := make([]float64, 1+r.IntN(40))
		for i := range vals {
			vals[i] = r.NormFloat64()
			if err := mem.Add(vals[i], 1); err != nil {
				t.Fatal(err)
			}
		}
		tx := st.Begin()
		s, err := rtdigest.Open(tx, []byte("td"))
		if err != nil || s == nil {
			t.Fatalf("round %d: open: %v", round, err)
		}
		if err := s.Add(vals); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		st.Commit(tx)
	}
	tx = st.Begin()
	s, err = rtdigest.Open(tx, []byte("td"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(); err != nil {
		t.Fatal(err)
	}
	got := &s.D
	checkInvariants(t, got)
	if got.Compressions == 0 || got.Merged != mem.Merged || got.Unmerged != mem.Unmerged || !slices.Equal(got.Means, mem.Means) || !slices.Equal(got.Weights, mem.Weights) {
		t.Fatalf("stored digest %d+%d nodes (%d compressions), in memory %d+%d", got.Merged, got.Unmerged, got.Compressions, mem.Merged, mem.Unmerged)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	st.Commit(tx)
	tx = st.Begin()
	s, _ = rtdigest.Open(tx, []byte("td"))
	if s.D.Size() != 0 || s.D.Nodes() != 0 || s.D.Compression != 20 {
		t.Fatalf("after reset: %+v", s.D)
	}
}

// Weights that would pass an int64 are refused.
func TestOverflow(t *testing.T) {
	d := rtdigest.New(10)
	if err := d.Add(1, math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	if err := d.Add(2, 1); err == nil {
		t.Fatal("a weight past MaxInt64 was taken")
	}
}
