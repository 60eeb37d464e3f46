package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count].
// Atomic across shards; an empty result deletes dst.
type zrangeStore struct {
	dst, src []byte
	rangeSpec
}

func parseZRangeStore(args [][]byte) (command.Runner, error) {
	rs, err := parseRange(args, 3, byRankKind, false, false, false, true)
	return zrangeStore{args[1], args[2], rs}, err
}

func (z zrangeStore) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.src, false)
	if err != nil {
		return err
	}
	es, err := z.fetch(set)
	if err != nil {
		return err
	}
	if err := storeResult(c, z.dst, es); err != nil {
		return err
	}
	c.W.Int(int64(len(es)))
	return nil
}

// storeResult replaces dst with a sorted set of es (deleting it when empty).
func storeResult(c *command.Ctx, dst []byte, es []rzset.Entry) error {
	if _, err := c.Tx.Delete(dst); err != nil {
		return err
	}
	if len(es) == 0 {
		return nil
	}
	set, _, err := rzset.Open(c.Tx, dst, true)
	if err != nil {
		return err
	}
	_, err = set.SetAll(es, c.EncodingLimits().ZSet)
	return err
}
