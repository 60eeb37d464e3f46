package zset

import (
	"github.com/rekv/rekv/actors/command"
)

// BZPOPMIN/BZPOPMAX key [key ...] timeout: pops one member from the first
// non-empty sorted set, or waits. Replies [key, member, score], or a nil
// array on timeout.
type bzpop struct {
	command.Wait
	max bool
}

func bzpopParser(max bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		d, err := command.Timeout(args[len(args)-1])
		if err != nil {
			return nil, err
		}
		return &bzpop{Wait: command.Wait{Keys: args[1 : len(args)-1], For: d}, max: max}, nil
	}
}

func (x *bzpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.Keys) }

func (x *bzpop) Serve(c *command.Ctx, key []byte) error {
	es, err := popNoted(c, key, x.max, 1)
	if err != nil {
		return err
	}
	popEffect(c, key, x.max, len(es), false)
	c.W.Array(3)
	c.W.Bulk(key)
	c.W.Bulk(es[0].Member)
	c.W.Double(es[0].Score)
	return nil
}

// BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]
type bzmpop struct {
	zmpop
	command.Wait
}

func parseBZMPop(args [][]byte) (command.Runner, error) {
	d, err := command.Timeout(args[1])
	if err != nil {
		return nil, err
	}
	m, err := parseMPop(args[2:])
	if err != nil {
		return nil, err
	}
	return &bzmpop{m, command.Wait{Keys: m.Keys, For: d}}, nil
}

func (x *bzmpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.Keys) }

func (x *bzmpop) Serve(c *command.Ctx, key []byte) error { return x.popFrom(c, key) }

var (
	_ command.Blocker = (*bzpop)(nil)
	_ command.Blocker = (*bzmpop)(nil)
)
