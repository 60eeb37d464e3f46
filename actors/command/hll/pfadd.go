package hll

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhll"
)

// PFADD key [element ...]: 1 if a register changed (or the key was
// created), else 0.
type pfadd struct {
	key   []byte
	elems [][]byte
}

func parsePFAdd(args [][]byte) (command.Runner, error) { return pfadd{args[1], args[2:]}, nil }

func (p pfadd) Run(c *command.Ctx) error {
	h, ok, err := load(c, p.key)
	if err != nil {
		return err
	}
	updated := !ok
	if !ok {
		h.v = rhll.New()
	}
	for _, e := range p.elems {
		var changed bool
		if h.v, changed, err = rhll.Add(h.v, e); err != nil {
			return replyErr(err)
		}
		updated = updated || changed
	}
	if updated {
		rhll.Stale(h.v)
		if err := h.save(c, p.key, false); err != nil {
			return err
		}
		c.W.Int(1)
		return nil
	}
	c.W.Int(0)
	return nil
}
