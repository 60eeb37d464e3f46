package topk

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/murmur"
	"github.com/rekv/rekv/actors/types/rtopk"
)

// TOPK.RESERVE key topk [width depth decay]: an empty Top-K keeping the
// topk heaviest items (width 8, depth 7, decay 0.9 by default).
type reserve struct {
	key []byte
	h   rtopk.Header
	bad error // reported once the key is known to be free
}

func parseReserve(args [][]byte) (command.Runner, error) {
	if len(args) != 3 && len(args) != 6 {
		return nil, rerr.ErrArity("topk.reserve")
	}
	r := reserve{key: args[1], h: rtopk.Header{Width: 8, Depth: 7, Decay: 0.9}}
	k, err := command.Int(args[2])
	if err != nil || k < 1 || k > rtopk.MaxK {
		r.bad = rerr.Errorf("TopK: invalid k")
		return r, nil
	}
	r.h.K = uint32(k)
	if len(args) == 6 {
		w, err := command.Int(args[3])
		if err != nil || w < 1 || w > rtopk.MaxCells {
			r.bad = rerr.Errorf("TopK: invalid width")
			return r, nil
		}
		d, err := command.Int(args[4])
		if err != nil || d < 1 || d > rtopk.MaxCells {
			r.bad = rerr.Errorf("TopK: invalid depth")
			return r, nil
		}
		decay, ok := command.ParseFloat(args[5])
		if !ok || !(decay > 0 && decay < 1) {
			r.bad = rerr.Errorf("TopK: invalid decay value. must be '< 1' & '> 0'")
			return r, nil
		}
		r.h.Width, r.h.Depth, r.h.Decay = uint32(w), uint32(d), decay
	}
	if !r.h.Valid() {
		r.bad = rerr.Errorf("TopK: invalid width")
	}
	return r, nil
}

func (r reserve) Run(c *command.Ctx) error {
	t, err := rtopk.Open(c.Tx, r.key)
	switch {
	case errors.Is(err, rerr.ErrWrongType), t != nil:
		return rerr.Errorf("TopK: key already exists")
	case err != nil:
		return err
	case r.bad != nil:
		return r.bad
	}
	h := r.h
	h.RNG = murmur.Hash64A(r.key, 0) // the generator's seed: the key's name
	if _, err := rtopk.Create(c.Tx, r.key, h); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
