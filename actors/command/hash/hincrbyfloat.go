package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HINCRBYFLOAT key field increment, in C long double like Redis.
type hincrByFloat struct {
	key, field []byte
	by         command.LongDouble
}

func parseHIncrByFloat(args [][]byte) (command.Runner, error) {
	by, ok := command.ParseLongDouble(args[3])
	if !ok {
		return nil, rerr.ErrNotFloat
	}
	if by.IsInf() {
		return nil, rerr.Errorf("ERR value is NaN or Infinity")
	}
	return hincrByFloat{key: args[1], field: args[2], by: by}, nil
}

func (h hincrByFloat) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, true)
	if err != nil {
		return err
	}
	v, exists, err := coll.Get(h.field)
	if err != nil {
		return err
	}
	cur := command.ZeroLongDouble()
	if exists {
		var ok bool
		if cur, ok = command.ParseLongDouble(v); !ok {
			return rerr.Errorf("ERR hash value is not a float")
		}
	}
	n, ok := cur.Add(h.by)
	if !ok {
		return rerr.ErrNaNOrInfinity
	}
	out := n.Format()
	if err := rhash.Write(coll, h.field, out, exists, c.EncodingLimits().Hash); err != nil {
		return err
	}
	c.Effect([]byte("HSET"), h.key, h.field, out) // the result: no rounding on a replica
	c.W.Bulk(out)
	return nil
}
