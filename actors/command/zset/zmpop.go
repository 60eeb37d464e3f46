package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first
// non-empty sorted set; replies [key, [[member, score], ...]] or a nil
// array.
type zmpop struct {
	command.MPop
	max bool
}

// parseMPop parses from numkeys (args[0]) on, as ZMPOP and BZMPOP share it.
func parseMPop(args [][]byte) (zmpop, error) {
	var x zmpop
	m, err := command.ParseMPop(args, func(arg []byte) error {
		switch {
		case command.Is(arg, "min"):
		case command.Is(arg, "max"):
			x.max = true
		default:
			return rerr.ErrSyntax
		}
		return nil
	})
	x.MPop = m
	return x, err
}

func parseZMPop(args [][]byte) (command.Runner, error) { return parseMPop(args[1:]) }

func (x zmpop) Run(c *command.Ctx) error { return command.PopFirst(c, x.Keys, x.popFrom) }

// popFrom pops from key and writes [key, [[member, score], ...]], or
// returns command.ErrWouldBlock (writing nothing) if key is missing.
func (x zmpop) popFrom(c *command.Ctx, key []byte) error {
	es, err := popNoted(c, key, x.max, x.Count)
	if err != nil {
		return err
	}
	popEffect(c, key, x.max, len(es), true)
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

// popEffect records a pop of n members as Redis replicates it: ZPOPMIN
// (or ZPOPMAX) key, with n as its count when withCount (ZMPOP, BZMPOP;
// BZPOPMIN and BZPOPMAX give none). A replica runs it on the same set,
// so it pops the same members, and never waits as a blocking pop could.
func popEffect(c *command.Ctx, key []byte, max bool, n int, withCount bool) {
	if !c.Effects() || n == 0 {
		return
	}
	name := []byte("ZPOPMIN")
	if max {
		name = []byte("ZPOPMAX")
	}
	if withCount {
		c.Effect(name, key, command.Itoa(int64(n)))
	} else {
		c.Effect(name, key)
	}
}
