package keys

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rtdigest"
	"github.com/rekv/rekv/codec/rdb"
)

// dumpTDigest serializes the t-digest at key as RedisBloom does:
// compressed (on a copy: DUMP stores nothing), its merged nodes only.
func dumpTDigest(c *command.Ctx, key []byte) ([]byte, error) {
	s, err := rtdigest.Open(c.Tx, key)
	if err != nil || s == nil {
		return nil, err
	}
	if err := s.Load(); err != nil {
		return nil, err
	}
	d := &s.D
	d.Compress() // in memory only: nothing is saved
	out := &rdb.TDigest{Compression: float64(d.Compression), Min: d.Min, Max: d.Max, Cap: d.Cap, Merged: d.Merged,
		Compressions: d.Compressions, MergedWeight: float64(d.MergedWeight), Means: d.Means, Weights: make([]float64, len(d.Weights))}
	for i, w := range d.Weights {
		out.Weights[i] = float64(w)
	}
	return rdb.DumpTDigest(out), nil
}

// tdigestOf returns the digest a decoded dump describes, or false if
// rekv cannot hold it: a compression outside 1..MaxCompression or not
// whole, a capacity other than RedisBloom's for it, unmerged nodes
// (RedisBloom saves compressed digests), weights that are not whole
// non-negative numbers adding up to the merged weight, means out of
// order.
func tdigestOf(t *rdb.TDigest) (*rtdigest.Digest, bool) {
	c := t.Compression
	if !(c >= 1 && c <= rtdigest.MaxCompression) || c != math.Trunc(c) {
		return nil, false
	}
	d := rtdigest.New(int64(c))
	if t.Cap != d.Cap || t.Unmerged != 0 || t.UnmergedWeight != 0 || t.Compressions < 0 || t.Merged != int64(len(t.Means)) {
		return nil, false
	}
	var sum float64
	for i, w := range t.Weights {
		m := t.Means[i]
		if !(w >= 0 && w <= 1<<53) || w != math.Trunc(w) || math.IsNaN(m) || math.IsInf(m, 0) || i > 0 && m < t.Means[i-1] {
			return nil, false
		}
		sum += w
		d.Means, d.Weights = append(d.Means, m), append(d.Weights, int64(w))
	}
	if sum != t.MergedWeight || math.IsNaN(t.Min) || math.IsNaN(t.Max) {
		return nil, false
	}
	d.Min, d.Max, d.Merged, d.MergedWeight, d.Compressions = t.Min, t.Max, t.Merged, int64(sum), t.Compressions
	return d, true
}

// restoreTDigest makes key the digest of a decoded dump (checked by
// wellFormed).
func restoreTDigest(c *command.Ctx, key []byte, t *rdb.TDigest) error {
	d, ok := tdigestOf(t)
	if !ok {
		return errBadFormat
	}
	_, err := rtdigest.CreateFrom(c.Tx, key, d)
	return err
}
