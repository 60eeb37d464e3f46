package tdigest

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TDIGEST.QUANTILE key quantile [quantile ...]: for each fraction, the
// estimated value below which that fraction of the observations fall.
type quantile struct {
	key []byte
	qs  [][]byte
}

func parseQuantile(args [][]byte) (command.Runner, error) { return quantile{args[1], args[2:]}, nil }

func (q quantile) Run(c *command.Ctx) error {
	d, err := load(c, q.key)
	if err != nil {
		return err
	}
	qs, err := floats(q.qs, rerr.Errorf("ERR T-Digest: error parsing quantile"))
	if err != nil {
		return err
	}
	for _, v := range qs {
		if v < 0 || v > 1 {
			return rerr.Errorf("ERR T-Digest: quantile should be in [0,1]")
		}
	}
	// Each ascending run of fractions is one walk of the centroids, as
	// RedisBloom estimates them.
	out := make([]float64, 0, len(qs))
	for i := 0; i < len(qs); {
		j := i + 1
		for j < len(qs) && qs[j-1] <= qs[j] {
			j++
		}
		out = append(out, d.Quantiles(qs[i:j])...)
		i = j
	}
	doubles(c, out)
	return nil
}
