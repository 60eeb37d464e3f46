package zset

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/net/resp"
)

// BZPOPMIN/BZPOPMAX key [key ...] timeout: pops one member from the first
// non-empty sorted set, or waits. Replies [key, member, score], or a nil
// array on timeout.
type bzpop struct {
	keys    [][]byte
	max     bool
	timeout time.Duration
}

func bzpopParser(max bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		d, err := command.Timeout(args[len(args)-1])
		if err != nil {
			return nil, err
		}
		return &bzpop{keys: args[1 : len(args)-1], max: max, timeout: d}, nil
	}
}

func (x *bzpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.keys) }

func (x *bzpop) Serve(c *command.Ctx, key []byte) error {
	es, err := popNoted(c, key, x.max, 1)
	if err != nil {
		return err
	}
	c.W.Array(3)
	c.W.Bulk(key)
	c.W.Bulk(es[0].Member)
	c.W.Double(es[0].Score)
	return nil
}

func (x *bzpop) WaitKeys() [][]byte      { return x.keys }
func (x *bzpop) ServeKeys() [][]byte     { return nil }
func (x *bzpop) Timeout() time.Duration  { return x.timeout }
func (x *bzpop) TimedOut(w *resp.Writer) { w.NullArray() }
func (x *bzpop) Consumes() bool          { return true }
func (x *bzpop) MayBlock() bool          { return true }

// BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]
type bzmpop struct {
	zmpop
	timeout time.Duration
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
	return &bzmpop{m, d}, nil
}

func (x *bzmpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.keys) }

func (x *bzmpop) Serve(c *command.Ctx, key []byte) error { return x.popFrom(c, key) }

func (x *bzmpop) WaitKeys() [][]byte      { return x.keys }
func (x *bzmpop) ServeKeys() [][]byte     { return nil }
func (x *bzmpop) Timeout() time.Duration  { return x.timeout }
func (x *bzmpop) TimedOut(w *resp.Writer) { w.NullArray() }
func (x *bzmpop) Consumes() bool          { return true }
func (x *bzmpop) MayBlock() bool          { return true }
