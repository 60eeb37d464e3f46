package hash

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HRANDFIELD key [count [WITHVALUES]]
type hrandField struct {
	key        []byte
	count      int64
	hasCount   bool
	withValues bool
}

func parseHRandField(args [][]byte) (command.Runner, error) {
	h := hrandField{key: args[1]}
	if len(args) < 3 {
		return h, nil
	}
	var err error
	if h.count, err = command.RandomCount(args[2]); err != nil {
		return nil, err
	}
	h.hasCount = true
	if len(args) > 4 || len(args) == 4 && !command.Is(args[3], "withvalues") {
		return nil, rerr.ErrSyntax
	}
	if len(args) == 4 {
		h.withValues = true
		if h.count < -math.MaxInt64/2 || h.count > math.MaxInt64/2 {
			return nil, rerr.Errorf("ERR value is out of range")
		}
	}
	return h, nil
}

func (h hrandField) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil {
		return err
	}
	if !h.hasCount {
		if coll == nil {
			c.W.Null()
			return nil
		}
		ms, err := command.RandomMembers(coll, 1)
		if err != nil {
			return err
		}
		c.W.Bulk(ms[0].Field)
		return nil
	}
	var ms []command.Member
	if coll != nil && h.count != 0 {
		if ms, err = command.RandomMembers(coll, h.count); err != nil {
			return err
		}
	}
	switch {
	case h.withValues && c.W.Proto() == 3:
		c.W.Array(len(ms))
		for _, m := range ms {
			c.W.Array(2)
			c.W.Bulk(m.Field)
			c.W.Bulk(m.Val)
		}
	case h.withValues:
		c.W.Array(2 * len(ms))
		for _, m := range ms {
			c.W.Bulk(m.Field)
			c.W.Bulk(m.Val)
		}
	default:
		c.W.Array(len(ms))
		for _, m := range ms {
			c.W.Bulk(m.Field)
		}
	}
	return nil
}
