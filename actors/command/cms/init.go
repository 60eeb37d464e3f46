package cms

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcms"
)

// CMS.INITBYDIM key width depth, CMS.INITBYPROB key error probability:
// an empty sketch of width x depth counters, or of the dimensions that
// keep estimates within error x the total with that probability
// (RedisBloom: width ceil(2/error), depth ceil(log10(probability) /
// log10(0.5))).
type initCmd struct {
	key          []byte
	width, depth uint64
	bad          error // reported once the key is known to be free
}

func parseInitByDim(args [][]byte) (command.Runner, error) {
	in := initCmd{key: args[1]}
	w, err := command.Int(args[2])
	if err != nil || w < 1 {
		return initCmd{key: args[1], bad: rerr.Errorf("CMS: invalid width")}, nil
	}
	d, err := command.Int(args[3])
	if err != nil || d < 1 {
		return initCmd{key: args[1], bad: rerr.Errorf("CMS: invalid depth")}, nil
	}
	in.width, in.depth = uint64(w), uint64(d)
	return in.checked(), nil
}

func parseInitByProb(args [][]byte) (command.Runner, error) {
	in := initCmd{key: args[1]}
	e, ok := command.ParseFloat(args[2])
	if !ok || !(e > 0 && e < 1) {
		return initCmd{key: args[1], bad: rerr.Errorf("CMS: invalid overestimation value")}, nil
	}
	p, ok := command.ParseFloat(args[3])
	if !ok || !(p > 0 && p < 1) {
		return initCmd{key: args[1], bad: rerr.Errorf("CMS: invalid prob value")}, nil
	}
	in.width, in.depth = rcms.Dims(e, p)
	return in.checked(), nil
}

// checked refuses dimensions whose counters would not fit.
func (in initCmd) checked() initCmd {
	if in.width < 1 || in.depth < 1 || in.width > rcms.MaxCells/in.depth {
		in.bad = rerr.Errorf("CMS: invalid init arguments")
	}
	return in
}

func (in initCmd) Run(c *command.Ctx) error {
	s, err := rcms.Open(c.Tx, in.key)
	switch {
	case errors.Is(err, rerr.ErrWrongType), s != nil:
		return errExists // any key, as RedisBloom checks
	case err != nil:
		return err
	case in.bad != nil:
		return in.bad
	}
	if _, err := rcms.Create(c.Tx, in.key, in.width, in.depth); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
