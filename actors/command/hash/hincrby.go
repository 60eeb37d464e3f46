package hash

import (
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
	"github.com/rekv/rekv/resp"
)

// HINCRBY key field increment
type hincrBy struct {
	key, field []byte
	by         int64
}

func parseHIncrBy(args [][]byte) (command.Runner, error) {
	by, err := command.Int(args[3])
	if err != nil {
		return nil, err
	}
	return hincrBy{key: args[1], field: args[2], by: by}, nil
}

func (h hincrBy) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, true)
	if err != nil {
		return err
	}
	v, exists, err := coll.Get(h.field)
	if err != nil {
		return err
	}
	var cur int64
	if exists {
		var ok bool
		if cur, ok = resp.ParseInt(v); !ok {
			return rerr.Errorf("ERR hash value is not an integer")
		}
	}
	if h.by < 0 && cur < 0 && h.by < math.MinInt64-cur || h.by > 0 && cur > 0 && h.by > math.MaxInt64-cur {
		return rerr.ErrOverflow
	}
	n := cur + h.by
	if err := rhash.Write(coll, h.field, strconv.AppendInt(nil, n, 10), exists, c.EncodingLimits().Hash); err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
