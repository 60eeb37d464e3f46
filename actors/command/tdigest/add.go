package tdigest

import (
	"errors"
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rtdigest"
)

// TDIGEST.ADD key value [value ...]: one observation per value.
type add struct {
	key    []byte
	values [][]byte
}

func parseAdd(args [][]byte) (command.Runner, error) { return add{args[1], args[2:]}, nil }

func (a add) Run(c *command.Ctx) error {
	s, err := open(c, a.key)
	if err != nil {
		return err
	}
	vs, err := floats(a.values, rerr.Errorf("ERR T-Digest: error parsing val parameter"))
	if err != nil {
		return err
	}
	for _, v := range vs {
		if math.IsInf(v, 0) {
			return rerr.Errorf("ERR T-Digest: val parameter needs to be a finite number")
		}
	}
	if err := s.Add(vs); err != nil {
		if errors.Is(err, rtdigest.ErrOverflow) {
			return errOverflow
		}
		return err
	}
	if err := s.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
