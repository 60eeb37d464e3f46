package tdigest

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TDIGEST.BYRANK / TDIGEST.BYREVRANK key rank [rank ...]: for each rank,
// the estimated value with that rank (counted from the largest, for
// BYREVRANK): the smallest (largest) observation for 0, inf (-inf) from
// the number of observations on, nan when the digest is empty.
type byRank struct {
	key   []byte
	ranks [][]byte
	rev   bool
}

func parseByRank(rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return byRank{args[1], args[2:], rev}, nil }
}

func (b byRank) Run(c *command.Ctx) error {
	d, err := load(c, b.key)
	if err != nil {
		return err
	}
	ranks := make([]int64, len(b.ranks))
	for i, a := range b.ranks {
		n, err := command.Int(a)
		if err != nil {
			return rerr.Errorf("ERR T-Digest: error parsing rank")
		}
		if n < 0 {
			return rerr.Errorf("ERR T-Digest: rank needs to be non negative")
		}
		ranks[i] = n
	}
	size := float64(d.Size())
	out := make([]float64, len(ranks))
	for i, n := range ranks {
		rk := float64(n)
		switch {
		case size == 0:
			out[i] = math.NaN()
		case rk == 0 && b.rev:
			out[i] = d.Max
		case rk == 0:
			out[i] = d.Min
		case rk >= size && b.rev:
			out[i] = math.Inf(-1)
		case rk >= size:
			out[i] = math.Inf(1)
		case b.rev:
			out[i] = d.Quantile((size - rk - 1) / size)
		default:
			out[i] = d.Quantile(rk / size)
		}
	}
	doubles(c, out)
	return nil
}
