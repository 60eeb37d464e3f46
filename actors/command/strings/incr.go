package strings

import (
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// INCR key, DECR key: INCRBY and DECRBY by one. Their runners hold the
// key through one pointer into the command line, as GET's does: an
// interface holds that without an allocation per command.
func parseIncr(args [][]byte) (command.Runner, error) { return incr{key: &args[1]}, nil }
func parseDecr(args [][]byte) (command.Runner, error) { return decr{key: &args[1]}, nil }

type incr struct{ key *[]byte }
type decr struct{ key *[]byte }

func (in incr) Run(c *command.Ctx) error { return incrBy{key: *in.key, by: 1}.Run(c) }
func (de decr) Run(c *command.Ctx) error { return incrBy{key: *de.key, by: -1}.Run(c) }

// incrBy adds by to the integer at key, keeping its TTL.
type incrBy struct {
	key []byte
	by  int64
}

func (in incrBy) Run(c *command.Ctx) error {
	var n int64
	err := c.Tx.UpdateStringKeepTTL(in.key, func(v []byte, ok bool) ([]byte, error) {
		var cur int64
		if ok {
			var isInt bool
			if cur, isInt = resp.ParseInt(v); !isInt {
				return nil, rerr.ErrNotInteger
			}
		}
		if in.by < 0 && cur < 0 && in.by < math.MinInt64-cur || in.by > 0 && cur > 0 && in.by > math.MaxInt64-cur {
			return nil, rerr.ErrOverflow
		}
		n = cur + in.by
		return strconv.AppendInt(nil, n, 10), nil
	})
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
