package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// INCRBYFLOAT key increment
//
// The arithmetic is C long double, as in Redis (see command.LongDouble).
type incrByFloat struct {
	key []byte
	by  command.LongDouble
}

func parseIncrByFloat(args [][]byte) (command.Runner, error) {
	by, ok := command.ParseLongDouble(args[2])
	if !ok {
		return nil, rerr.ErrNotFloat
	}
	return incrByFloat{key: args[1], by: by}, nil
}

func (in incrByFloat) Run(c *command.Ctx) error {
	var out []byte
	err := c.Tx.UpdateStringKeepTTL(in.key, func(v []byte, ok bool) ([]byte, error) {
		cur := command.ZeroLongDouble()
		if ok {
			if cur, ok = command.ParseLongDouble(v); !ok {
				return nil, rerr.ErrNotFloat
			}
		}
		n, ok := cur.Add(in.by)
		if !ok {
			return nil, rerr.ErrNaNOrInfinity
		}
		out = n.Format()
		return out, nil
	})
	if err != nil {
		return err
	}
	// The result, not the increment: a replica's float arithmetic could
	// round otherwise (Redis propagates SET ... KEEPTTL too).
	c.Effect([]byte("SET"), in.key, out, []byte("KEEPTTL"))
	c.W.Bulk(out)
	return nil
}
