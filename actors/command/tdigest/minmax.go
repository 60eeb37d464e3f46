package tdigest

import (
	"math"

	"github.com/rekv/rekv/actors/command"
)

// TDIGEST.MIN key, TDIGEST.MAX key: the smallest or largest observation
// (nan when empty).
type minMax struct {
	key []byte
	max bool
}

func parseMinMax(isMax bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return minMax{args[1], isMax}, nil }
}

func (mm minMax) Run(c *command.Ctx) error {
	s, err := open(c, mm.key)
	if err != nil {
		return err
	}
	v := s.D.Min
	if mm.max {
		v = s.D.Max
	}
	if s.D.Size() == 0 {
		v = math.NaN()
	}
	c.W.Double(v)
	return nil
}
