package strings

import (
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// INCRBYFLOAT key increment
type incrByFloat struct {
	key []byte
	by  float64
}

func parseIncrByFloat(args [][]byte) (command.Runner, error) {
	by, err := command.Float(args[2])
	if err != nil {
		return nil, err
	}
	return incrByFloat{key: args[1], by: by}, nil
}

func (in incrByFloat) Run(c *command.Ctx) error {
	v, ok, err := c.Tx.GetString(in.key)
	if err != nil {
		return err
	}
	var cur float64
	var expireAt int64
	if ok {
		if cur, ok = command.ParseFloat(v); !ok {
			return rerr.ErrNotFloat
		}
		m, _, err := c.Tx.Meta(in.key)
		if err != nil {
			return err
		}
		expireAt = m.ExpireAt
	}
	n := cur + in.by
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return rerr.ErrNaNOrInfinity
	}
	out := strconv.AppendFloat(nil, n, 'f', -1, 64)
	if err := c.Tx.SetString(in.key, out, expireAt); err != nil {
		return err
	}
	c.W.Bulk(out)
	return nil
}
