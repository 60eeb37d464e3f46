package hll

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhll"
)

// PFCOUNT key [key ...]: the estimated cardinality of one HLL (cached in
// its header), or of the union of several (computed, not cached).
type pfcount struct{ keys [][]byte }

func parsePFCount(args [][]byte) (command.Runner, error) { return pfcount{args[1:]}, nil }

func (p pfcount) Run(c *command.Ctx) error {
	if len(p.keys) > 1 {
		max := make([]byte, rhll.Registers)
		for _, k := range p.keys {
			h, ok, err := load(c, k)
			if err != nil {
				return err
			}
			if ok {
				if err := rhll.Merge(max, h.v); err != nil {
					return replyErr(err)
				}
			}
		}
		c.W.Int(int64(rhll.CountRegisters(max)))
		return nil
	}
	// A valid cached count needs only the header.
	if _, hdr, err := header(c, p.keys[0]); err != nil {
		return err
	} else if hdr != nil {
		if n, valid := rhll.Cached(hdr); valid {
			c.W.Int(int64(n))
			return nil
		}
	}
	h, ok, err := load(c, p.keys[0])
	if err != nil || !ok {
		if err == nil {
			c.W.Int(0)
		}
		return err
	}
	n, valid := rhll.Cached(h.v)
	if !valid {
		if n, err = rhll.Count(h.v); err != nil {
			return replyErr(err)
		}
		rhll.SetCached(h.v, n)
		if err := h.save(c, p.keys[0], false); err != nil {
			return err
		}
	}
	c.W.Int(int64(n))
	return nil
}
