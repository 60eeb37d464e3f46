package tdigest

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TDIGEST.RANK / TDIGEST.REVRANK key value [value ...]: for each value,
// the estimated number of observations below it (above it, for REVRANK)
// plus half those equal to it: -1 below the smallest observation (above
// the largest), the count above the largest (below the smallest), -2
// when the digest is empty.
type rank struct {
	key    []byte
	values [][]byte
	rev    bool
}

func parseRank(rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return rank{args[1], args[2:], rev}, nil }
}

func (r rank) Run(c *command.Ctx) error {
	d, err := load(c, r.key)
	if err != nil {
		return err
	}
	vs, err := floats(r.values, rerr.Errorf("ERR T-Digest: error parsing value"))
	if err != nil {
		return err
	}
	size := float64(d.Size())
	out := make([]int64, len(vs))
	for i, v := range vs {
		var rk float64
		switch {
		case size == 0:
			rk = -2
		case v < d.Min && r.rev, v > d.Max && !r.rev:
			rk = size
		case v < d.Min, v > d.Max:
			rk = -1
		case r.rev:
			rk = math.Round(size - math.Round(d.CDF(v)*size))
		default:
			rk = halfRoundDown(d.CDF(v) * size)
		}
		out[i] = int64(rk)
	}
	c.Ints(out, true)
	return nil
}

// halfRoundDown rounds to the nearest integer, halves toward zero.
func halfRoundDown(f float64) float64 {
	whole, frac := math.Modf(f)
	switch {
	case math.Abs(frac) <= 0.5:
		return whole
	case whole >= 0:
		return whole + 1
	}
	return whole - 1
}
