package zset

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first
// non-empty sorted set; replies [key, [[member, score], ...]] or a nil
// array.
type zmpop struct {
	keys  [][]byte
	max   bool
	count int64
}

// parseMPop parses from numkeys (args[0]) on, as ZMPOP and BZMPOP share it.
func parseMPop(args [][]byte) (zmpop, error) {
	n, err := command.Int(args[0])
	if err != nil || n <= 0 {
		return zmpop{}, rerr.Errorf("ERR numkeys should be greater than 0")
	}
	if n > int64(len(args))-2 { // no room for MIN|MAX
		return zmpop{}, rerr.ErrSyntax
	}
	x := zmpop{keys: args[1 : 1+n], count: -1}
	rest := args[1+n:]
	switch {
	case command.Is(rest[0], "min"):
	case command.Is(rest[0], "max"):
		x.max = true
	default:
		return zmpop{}, rerr.ErrSyntax
	}
	for i := 1; i < len(rest); i++ {
		if x.count == -1 && command.Is(rest[i], "count") && i+1 < len(rest) {
			i++
			c, err := command.Int(rest[i])
			if err != nil || c <= 0 {
				return zmpop{}, rerr.Errorf("ERR count should be greater than 0")
			}
			x.count = c
			continue
		}
		return zmpop{}, rerr.ErrSyntax
	}
	if x.count == -1 {
		x.count = 1
	}
	return x, nil
}

func parseZMPop(args [][]byte) (command.Runner, error) { return parseMPop(args[1:]) }

func (x zmpop) Run(c *command.Ctx) error {
	for _, k := range x.keys {
		err := x.popFrom(c, k)
		if !errors.Is(err, command.ErrWouldBlock) {
			return err
		}
	}
	c.W.NullArray()
	return nil
}

// popFrom pops from key and writes [key, [[member, score], ...]], or
// returns command.ErrWouldBlock (writing nothing) if key is missing.
func (x zmpop) popFrom(c *command.Ctx, key []byte) error {
	es, err := popNoted(c, key, x.max, x.count)
	if err != nil {
		return err
	}
	c.W.Array(2)
	c.W.Bulk(key)
	c.W.Array(len(es))
	for _, e := range es {
		c.W.Array(2)
		c.W.Bulk(e.Member)
		c.W.Double(e.Score)
	}
	return nil
}

// popNoted removes up to count members from the low (or, with max, high)
// end of key and records zpopmin or zpopmax; command.ErrWouldBlock if the
// key is missing.
func popNoted(c *command.Ctx, key []byte, max bool, count int64) ([]rzset.Entry, error) {
	set, ok, err := rzset.Open(c.Tx, key, false)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, command.ErrWouldBlock
	}
	es, err := set.ByRank(0, count-1, max)
	if err != nil {
		return nil, err
	}
	ms := make([][]byte, len(es))
	for i, e := range es {
		ms[i] = e.Member
	}
	if _, err := set.RemoveMembers(ms); err != nil {
		return nil, err
	}
	ev := "zpopmin"
	if max {
		ev = "zpopmax"
	}
	c.Tx.AddNote(uint16(command.NotifyZSet), ev, key)
	return es, nil
}
