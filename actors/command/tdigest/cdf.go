package tdigest

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// TDIGEST.CDF key value [value ...]: for each value, the estimated
// fraction of observations below it plus half those equal to it.
type cdf struct {
	key    []byte
	values [][]byte
}

func parseCDF(args [][]byte) (command.Runner, error) { return cdf{args[1], args[2:]}, nil }

func (q cdf) Run(c *command.Ctx) error {
	d, err := load(c, q.key)
	if err != nil {
		return err
	}
	vs, err := floats(q.values, rerr.Errorf("ERR T-Digest: error parsing cdf"))
	if err != nil {
		return err
	}
	for i, v := range vs {
		vs[i] = d.CDF(v)
	}
	doubles(c, vs)
	return nil
}
