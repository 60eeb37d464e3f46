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
	cur, err := currentInt(c, in.key)
	if err != nil {
		return err
	}
	if in.by < 0 && cur < 0 && in.by < math.MinInt64-cur || in.by > 0 && cur > 0 && in.by > math.MaxInt64-cur {
		return rerr.ErrOverflow
	}
	n := cur + in.by
	if err := c.Tx.SetStringKeepTTL(in.key, strconv.AppendInt(nil, n, 10)); err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}

// currentInt reads the integer at key (0 if missing).
func currentInt(c *command.Ctx, key []byte) (int64, error) {
	v, ok, err := c.Tx.GetString(key)
	if err != nil || !ok {
		return 0, err
	}
	n, isInt := resp.ParseInt(v)
	if !isInt {
		return 0, rerr.ErrNotInteger
	}
	return n, nil
}
