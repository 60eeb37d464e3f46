package cms

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcms"
)

// CMS.MERGE destination numKeys source [source ...] [WEIGHTS weight
// [weight ...]]: the destination (which must exist, with the sources'
// dimensions) becomes the weighted sum of the sources.
type merge struct {
	dst     []byte
	srcs    [][]byte
	weights []int64
	bad     error // reported once the destination is known to exist
	badAt   int   // with bad: the sources checked before it (-1: before all)
}

func parseMerge(args [][]byte) (command.Runner, error) {
	m := merge{dst: args[1], badAt: -1}
	n, err := command.Int(args[2])
	if err != nil {
		m.bad = rerr.Errorf("CMS: invalid numkeys")
		return m, nil
	}
	rest := args[3:]
	if n <= 0 {
		m.bad = rerr.Errorf("CMS: Number of keys must be positive")
		return m, nil
	}
	pos := -1
	for i, a := range rest {
		if command.Is(a, "weights") {
			pos = i
			break
		}
	}
	switch {
	case pos < 0 && n != int64(len(rest)):
		m.bad = rerr.Errorf("CMS: wrong number of keys")
		return m, nil
	case pos >= 0 && (int64(pos) != n || int64(len(rest)) != 1+2*n):
		m.bad = rerr.Errorf("CMS: wrong number of keys/weights")
		return m, nil
	}
	m.srcs = rest[:n]
	for i := range m.srcs {
		w := int64(1)
		if pos >= 0 {
			if w, err = command.Int(rest[int(n)+1+i]); err != nil {
				// RedisBloom reads weight i before source i: the
				// sources before it are checked first.
				m.bad, m.badAt = rerr.Errorf("CMS: invalid weight value"), i
				return m, nil
			}
		}
		m.weights = append(m.weights, w)
	}
	return m, nil
}

func (m merge) Run(c *command.Ctx) error {
	dst, err := open(c, m.dst)
	if err != nil {
		return err
	}
	if m.bad != nil && m.badAt < 0 {
		return m.bad
	}
	srcs := make([]*rcms.Sketch, 0, len(m.srcs))
	for i, key := range m.srcs {
		if m.bad != nil && i == m.badAt {
			return m.bad
		}
		s, err := open(c, key)
		if err != nil {
			return err
		}
		if s.Width != dst.Width || s.Depth != dst.Depth {
			return rerr.Errorf("CMS: width/depth is not equal")
		}
		srcs = append(srcs, s)
	}
	if err := dst.Merge(srcs, m.weights); err != nil {
		if errors.Is(err, rcms.ErrOverflow) {
			return rerr.Errorf("CMS: MERGE overflow")
		}
		return err
	}
	if err := dst.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
