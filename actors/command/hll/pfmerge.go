package hll

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhll"
)

// PFMERGE destkey [sourcekey ...]: destkey becomes the union of itself and
// the sources; dense if any input is dense, as Redis.
type pfmerge struct{ keys [][]byte } // destkey first

func parsePFMerge(args [][]byte) (command.Runner, error) { return pfmerge{args[1:]}, nil }

func (p pfmerge) Run(c *command.Ctx) error {
	max := make([]byte, rhll.Registers)
	dense := false
	for _, k := range p.keys {
		h, ok, err := load(c, k)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		dense = dense || rhll.IsDense(h.v)
		if err := rhll.Merge(max, h.v); err != nil {
			return replyErr(err)
		}
	}
	dst, ok, err := load(c, p.keys[0])
	if err != nil {
		return err
	}
	if !ok {
		dst.v = rhll.New()
	}
	if dense {
		if dst.v, err = rhll.ToDense(dst.v); err != nil {
			return replyErr(err)
		}
	}
	for i, r := range max {
		if r == 0 {
			continue
		}
		if dst.v, _, err = rhll.Set(dst.v, i, r); err != nil {
			return replyErr(err)
		}
	}
	rhll.Stale(dst.v)
	if err := dst.save(c, p.keys[0], true); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
