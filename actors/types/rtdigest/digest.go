package rtdigest

import (
	"errors"
	"math"
	"sort"
)

// Digest is a merging t-digest in memory, with RedisBloom's fields and
// arithmetic (its t-digest-c library): Cap nodes at most (6 x
// compression + 10), the first Merged of them centroids in mean order,
// the Unmerged rest single observations (or merged-in centroids) as they
// came. Adding to a digest whose nodes reach Cap-1 first compresses it:
// the nodes are sorted by mean and neighbours merge while the merged
// weight stays under the k1 scale's bound at both of its ends.
type Digest struct {
	Compression    int64
	Cap            int64
	Min, Max       float64
	Merged         int64
	Unmerged       int64
	Compressions   int64
	MergedWeight   int64
	UnmergedWeight int64
	// Means and Weights hold the nodes (len Merged+Unmerged) when loaded.
	Means   []float64
	Weights []int64
}

// MaxCompression is the largest compression a digest takes: RedisBloom
// refuses one whose capacity (6 x compression + 10) passes a C int.
const MaxCompression = (math.MaxInt32 - 10) / 6

// ErrOverflow is an addition whose weights would pass an int64, or a
// digest with no room left (RedisBloom's "overflow detected").
var ErrOverflow = errors.New("t-digest overflow")

// New returns an empty digest (1 <= compression <= MaxCompression).
func New(compression int64) *Digest {
	d := &Digest{Compression: compression, Cap: 6*compression + 10}
	d.Reset()
	return d
}

// Reset empties d, keeping its compression.
func (d *Digest) Reset() {
	d.Min, d.Max = math.MaxFloat64, -math.MaxFloat64
	d.Merged, d.Unmerged, d.Compressions = 0, 0, 0
	d.MergedWeight, d.UnmergedWeight = 0, 0
	d.Means, d.Weights = d.Means[:0], d.Weights[:0]
}

// Nodes is the number of nodes in use.
func (d *Digest) Nodes() int64 { return d.Merged + d.Unmerged }

// Size is the total weight: the number of observations.
func (d *Digest) Size() int64 { return d.MergedWeight + d.UnmergedWeight }

// MemoryUsage is the size RedisBloom reports for a digest: a pointer
// and its two node arrays.
func (d *Digest) MemoryUsage() int64 { return 8 + 16*d.Cap }

// full reports whether the next addition compresses first.
func (d *Digest) full() bool { return d.Nodes() >= d.Cap-1 }

// admit checks that a node of weight w fits (d compressed first if it
// was full) and counts it in: min, max, the unmerged count and weight.
// It returns the node's position. The caller stores the node.
func (d *Digest) admit(mean float64, w int64) (int64, error) {
	if math.IsNaN(mean) || math.IsInf(mean, 0) || w < 0 {
		return 0, ErrOverflow
	}
	pos := d.Nodes()
	if pos >= d.Cap || d.UnmergedWeight > math.MaxInt64-w || d.UnmergedWeight+w > math.MaxInt64-d.MergedWeight {
		return 0, ErrOverflow
	}
	d.Min, d.Max = math.Min(d.Min, mean), math.Max(d.Max, mean)
	d.Unmerged++
	d.UnmergedWeight += w
	return pos, nil
}

// Add adds a node of mean and weight w (one observation: w 1) to a
// loaded digest.
func (d *Digest) Add(mean float64, w int64) error {
	if d.full() {
		d.Compress()
	}
	if _, err := d.admit(mean, w); err != nil {
		return err
	}
	d.Means, d.Weights = append(d.Means, mean), append(d.Weights, w)
	return nil
}

// byMean sorts the nodes by mean, weights following.
type byMean struct {
	m []float64
	w []int64
}

func (s byMean) Len() int           { return len(s.m) }
func (s byMean) Less(i, j int) bool { return s.m[i] < s.m[j] }
func (s byMean) Swap(i, j int) {
	s.m[i], s.m[j] = s.m[j], s.m[i]
	s.w[i], s.w[j] = s.w[j], s.w[i]
}

// Compress merges the unmerged nodes in: sorts every node by mean, then
// sweeps them, folding node i into the current centroid while the
// combined weight z = w x compression / (2 pi W ln W) stays at most
// q(1-q) at both ends of the centroid (q its quantiles in W). A digest
// of total weight 1 or less only sorts.
func (d *Digest) Compress() {
	if d.Unmerged == 0 {
		return
	}
	n := int(d.Nodes())
	sort.Stable(byMean{d.Means[:n], d.Weights[:n]})
	total := float64(d.MergedWeight) + float64(d.UnmergedWeight)
	d.Compressions++
	if total <= 1 {
		d.Merged, d.MergedWeight = int64(n), int64(total)
		d.Unmerged, d.UnmergedWeight = 0, 0
		return
	}
	normalizer := float64(d.Compression) / (2 * math.Pi * total * math.Log(total))
	m, w := d.Means, d.Weights
	cur, before := 0, 0.0
	for i := 1; i < n; i++ {
		proposed := float64(w[cur]) + float64(w[i])
		z := proposed * normalizer
		q0 := before / total
		q2 := (before + proposed) / total
		if z <= q0*(1-q0) && z <= q2*(1-q2) {
			w[cur] += w[i]
			m[cur] += (m[i] - m[cur]) * float64(w[i]) / float64(w[cur])
			continue
		}
		before += float64(w[cur])
		cur++
		w[cur], m[cur] = w[i], m[i]
	}
	d.Means, d.Weights = m[:cur+1], w[:cur+1]
	d.Merged, d.MergedWeight = int64(cur+1), int64(total)
	d.Unmerged, d.UnmergedWeight = 0, 0
}

// MergeFrom adds every node of src (compressed first, on a copy) to d,
// as TDIGEST.MERGE does for each source.
func (d *Digest) MergeFrom(src *Digest) error {
	d.Compress()
	s := src.Clone()
	s.Compress()
	for i := range s.Means {
		if err := d.Add(s.Means[i], s.Weights[i]); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns a copy of d that shares nothing with it.
func (d *Digest) Clone() *Digest {
	c := *d
	c.Means = append([]float64(nil), d.Means...)
	c.Weights = append([]int64(nil), d.Weights...)
	return &c
}

// weightedAverage is the average of x1 and x2 weighted by w1 and w2,
// kept between them.
func weightedAverage(x1, w1, x2, w2 float64) float64 {
	if x1 > x2 {
		x1, w1, x2, w2 = x2, w2, x1, w1
	}
	x := (x1*w1 + x2*w2) / (w1 + w2)
	return math.Max(x1, math.Min(x, x2))
}

// CDF returns the estimated fraction of observations below x plus half
// those equal to it (NaN when empty). d is compressed first.
func (d *Digest) CDF(x float64) float64 {
	d.Compress()
	n := int(d.Merged)
	if n == 0 {
		return math.NaN()
	}
	if x < d.Min {
		return 0
	}
	if x > d.Max {
		return 1
	}
	if n == 1 {
		width := d.Max - d.Min
		if x-d.Min <= width {
			return 0.5
		}
		return (x - d.Min) / width
	}
	m, w := d.Means, d.Weights
	total := float64(d.MergedWeight)
	if x < m[0] { // the left tail: one observation is at min
		width := m[0] - d.Min
		if width <= 0 {
			return 0
		}
		if x == d.Min {
			return 0.5 / total
		}
		return (1 + (x-d.Min)/width*(float64(w[0])/2-1)) / total
	}
	if x > m[n-1] { // the right tail: one observation is at max
		width := d.Max - m[n-1]
		if width <= 0 {
			return 1
		}
		if x == d.Max {
			return 1 - 0.5/total
		}
		return 1 - (1+(d.Max-x)/width*(float64(w[n-1])/2-1))/total
	}
	before := 0.0
	for i := 0; i < n-1; i++ {
		switch {
		case m[i] == x: // centroids exactly at x count half
			dw := 0.0
			for ; i < n && m[i] == x; i++ {
				dw += float64(w[i])
			}
			return (before + dw/2) / total
		case m[i] <= x && x < m[i+1]:
			left, right := float64(w[i]), float64(w[i+1])
			dw := (left + right) / 2
			if m[i+1]-m[i] <= 0 {
				return (before + dw) / total
			}
			// A singleton's weight sits at its mean: it takes no part
			// in the interpolation.
			var leftOut, rightOut float64
			switch {
			case left == 1 && right == 1:
				return (before + 1) / total
			case left == 1:
				leftOut = 0.5
			case right == 1:
				rightOut = 0.5
			}
			base := before + left/2 + leftOut
			return (base + (dw-leftOut-rightOut)*(x-m[i])/(m[i+1]-m[i])) / total
		}
		before += float64(w[i])
	}
	return 1 - 0.5/total
}

// walker finds values at ascending indexes (observation counts) of a
// compressed digest with at least two centroids, going on from where
// the last one stopped.
type walker struct {
	d      *Digest
	before float64
	at     int
}

func (d *Digest) walker() *walker { return &walker{d: d, before: float64(d.Weights[0]) / 2} }

func (k *walker) value(index float64) float64 {
	d := k.d
	m, w := d.Means, d.Weights
	n := len(m)
	total := float64(d.MergedWeight)
	if left := float64(w[0]); left > 1 && index < left/2 {
		// one observation is at min: interpolate with the rest
		return d.Min + (index-1)/(left/2-1)*(m[0]-d.Min)
	}
	if index > total-1 {
		return d.Max
	}
	right, rightMean := float64(w[n-1]), m[n-1]
	if right > 1 && total-index <= right/2 {
		return d.Max - (total-index-1)/(right/2-1)*(d.Max-rightMean)
	}
	for ; k.at < n-1; k.at++ {
		i := k.at
		left, next := float64(w[i]), float64(w[i+1])
		dw := (left + next) / 2
		if k.before+dw > index {
			var leftUnit, rightUnit float64
			if left == 1 {
				if index-k.before < 0.5 {
					return m[i]
				}
				leftUnit = 0.5
			}
			if next == 1 {
				if k.before+dw-index <= 0.5 {
					return m[i+1]
				}
				rightUnit = 0.5
			}
			z1 := index - k.before - leftUnit
			z2 := k.before + dw - index - rightUnit
			return weightedAverage(m[i], z2, m[i+1], z1)
		}
		k.before += dw
	}
	z1 := index - total - right/2
	z2 := right/2 - z1
	return weightedAverage(rightMean, z1, d.Max, z2)
}

// Quantile returns the estimated value below which a fraction q of the
// observations fall (TDIGEST.BYRANK's estimate): NaN when empty or q
// is outside [0, 1], min for an index below 1.
func (d *Digest) Quantile(q float64) float64 {
	d.Compress()
	if q < 0 || q > 1 || d.Merged == 0 {
		return math.NaN()
	}
	if d.Merged == 1 {
		return d.Means[0]
	}
	index := q * float64(d.MergedWeight)
	if index < 1 {
		return d.Min
	}
	return d.walker().value(index)
}

// Quantiles returns the estimates of qs, an ascending run, walking the
// centroids once (TDIGEST.QUANTILE's estimate: unlike Quantile, an index
// below 1 is interpolated too).
func (d *Digest) Quantiles(qs []float64) []float64 {
	d.Compress()
	out := make([]float64, len(qs))
	switch d.Merged {
	case 0:
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	case 1:
		for i, q := range qs {
			out[i] = d.Means[0]
			if q < 0 || q > 1 {
				out[i] = math.NaN()
			}
		}
		return out
	}
	k := d.walker()
	for i, q := range qs {
		out[i] = k.value(q * float64(d.MergedWeight))
	}
	return out
}

// TrimmedMean returns the mean of the observations between the lo and
// hi fractions (NaN when empty).
func (d *Digest) TrimmedMean(lo, hi float64) float64 {
	d.Compress()
	if d.Merged == 0 || lo < 0 || lo > 1 || hi < 0 || hi > 1 {
		return math.NaN()
	}
	if d.Merged == 1 {
		return d.Means[0]
	}
	total := float64(d.MergedWeight)
	left, right := math.Floor(total*lo), math.Ceil(total*hi)
	var done, sum, count float64
	for i, mean := range d.Means {
		w := float64(d.Weights[i])
		add := w - math.Min(math.Max(0, left-done), w)
		add = math.Min(math.Max(0, right-done), add)
		done += w
		sum += mean * add
		count += add
		if done >= right {
			break
		}
	}
	return sum / count
}
