package cms

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcms"
)

// CMS.INCRBY key item increment [item increment ...]: adds each
// increment to its item and answers each item's new estimate (an error
// in its place when a counter would overflow; it stays at its maximum).
type incrBy struct {
	key   []byte
	items [][]byte
	incrs []uint64
	bad   error
}

func parseIncrBy(args [][]byte) (command.Runner, error) {
	if len(args)%2 != 0 {
		return nil, rerr.ErrArity("cms.incrby")
	}
	in := incrBy{key: args[1]}
	for i := 2; i < len(args); i += 2 {
		n, err := command.Int(args[i+1])
		switch {
		case err != nil:
			in.bad = rerr.Errorf("CMS: Cannot parse number")
		case n < 0:
			in.bad = rerr.Errorf("CMS: Number cannot be negative")
		}
		if in.bad != nil {
			return in, nil
		}
		in.items, in.incrs = append(in.items, args[i]), append(in.incrs, uint64(n))
	}
	return in, nil
}

func (in incrBy) Run(c *command.Ctx) error {
	s, err := open(c, in.key)
	if err != nil {
		return err
	}
	if in.bad != nil {
		return in.bad
	}
	c.W.Array(len(in.items))
	for i, item := range in.items {
		est, err := s.IncrBy(item, in.incrs[i])
		switch {
		case errors.Is(err, rcms.ErrOverflow):
			c.W.Error("CMS: INCRBY overflow")
		case err != nil:
			return err
		default:
			c.W.Int(int64(est))
		}
	}
	return s.Flush()
}
