package tdigest

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TDIGEST.TRIMMED_MEAN key low_cut_quantile high_cut_quantile: the mean
// of the observations between the two fractions (nan when empty).
type trimmedMean struct {
	key    []byte
	lo, hi []byte
}

func parseTrimmedMean(args [][]byte) (command.Runner, error) {
	return trimmedMean{args[1], args[2], args[3]}, nil
}

func (t trimmedMean) Run(c *command.Ctx) error {
	d, err := load(c, t.key)
	if err != nil {
		return err
	}
	lo, ok := command.ParseFloat(t.lo)
	if !ok {
		return rerr.Errorf("ERR T-Digest: error parsing low_cut_percentile")
	}
	hi, ok := command.ParseFloat(t.hi)
	if !ok {
		return rerr.Errorf("ERR T-Digest: error parsing high_cut_percentile")
	}
	if lo < 0 || lo > 1 || hi < 0 || hi > 1 {
		return rerr.Errorf("ERR T-Digest: low_cut_percentile and high_cut_percentile should be in [0,1]")
	}
	if lo >= hi {
		return rerr.Errorf("ERR T-Digest: low_cut_percentile should be lower than high_cut_percentile")
	}
	c.W.Double(d.TrimmedMean(lo, hi))
	return nil
}
