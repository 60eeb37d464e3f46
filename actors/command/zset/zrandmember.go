package zset

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZRANDMEMBER key [count [WITHSCORES]]
type zrandMember struct {
	key        []byte
	count      int64
	hasCount   bool
	withScores bool
}

func parseZRandMember(args [][]byte) (command.Runner, error) {
	z := zrandMember{key: args[1]}
	if len(args) < 3 {
		return z, nil
	}
	var err error
	if z.count, err = command.RandomCount(args[2]); err != nil {
		return nil, err
	}
	z.hasCount = true
	if len(args) > 4 || len(args) == 4 && !command.Is(args[3], "withscores") {
		return nil, rerr.ErrSyntax
	}
	if len(args) == 4 {
		z.withScores = true
		if z.count < -math.MaxInt64/2 || z.count > math.MaxInt64/2 {
			return nil, rerr.Errorf("ERR value is out of range")
		}
	}
	return z, nil
}

func (z zrandMember) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	n := z.count
	if !z.hasCount {
		n = 1
	}
	var picked []command.Member
	if ok && n != 0 {
		if picked, err = command.RandomMembers(set.Coll, n); err != nil {
			return err
		}
	}
	if !z.hasCount {
		if len(picked) == 0 {
			c.W.Null()
		} else {
			c.W.Bulk(picked[0].Field)
		}
		return nil
	}
	es := make([]rzset.Entry, len(picked))
	for i, p := range picked {
		s, err := rzset.DecodeScore(p.Val)
		if err != nil {
			return err
		}
		es[i] = rzset.Entry{Member: p.Field, Score: s}
	}
	writeEntries(c, es, z.withScores)
	return nil
}
