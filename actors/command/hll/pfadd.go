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
	if done, err := p.addDense(c); done || err != nil {
		return err
	}
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

// addDense adds to a dense HLL register by register, reading and writing
// only the bytes of each register (one chunk of the stored string), and
// reports whether the key held one.
func (p pfadd) addDense(c *command.Ctx) (bool, error) {
	str, hdr, err := header(c, p.key)
	if err != nil || hdr == nil || !rhll.IsDense(hdr) {
		return false, err
	}
	updated := false
	for _, e := range p.elems {
		idx, count := rhll.Position(e)
		off := rhll.RegisterOffset(idx)
		w, err := str.Read(off, 2)
		if err != nil {
			return true, err
		}
		if rhll.SetInWindow(w, idx, count) {
			if err := str.Write(off, w); err != nil {
				return true, err
			}
			updated = true
		}
	}
	if updated {
		if _, valid := rhll.Cached(hdr); valid {
			rhll.Stale(hdr)
			if err := str.Write(15, hdr[15:16]); err != nil {
				return true, err
			}
		}
	}
	c.W.Int(int64(btoi(updated)))
	return true, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
