package list

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/net/resp"
)

// BLPOP/BRPOP key [key ...] timeout: pops from the first non-empty list,
// or waits. Replies [key, element], or a nil array on timeout.
type bpop struct {
	keys    [][]byte
	left    bool
	timeout time.Duration
}

func bpopParser(left bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		d, err := command.Timeout(args[len(args)-1])
		if err != nil {
			return nil, err
		}
		return &bpop{keys: args[1 : len(args)-1], left: left, timeout: d}, nil
	}
}

func (x *bpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.keys) }

func (x *bpop) Serve(c *command.Ctx, key []byte) error {
	l, err := rlist.Open(c.Tx, key, false)
	if err != nil {
		return err
	}
	if l == nil {
		return command.ErrWouldBlock
	}
	vs, err := popNoted(l, x.left, 1)
	if err != nil {
		return err
	}
	c.W.Array(2)
	c.W.Bulk(key)
	c.W.Bulk(vs[0])
	return nil
}

func (x *bpop) WaitKeys() [][]byte      { return x.keys }
func (x *bpop) ServeKeys() [][]byte     { return nil }
func (x *bpop) Timeout() time.Duration  { return x.timeout }
func (x *bpop) TimedOut(w *resp.Writer) { w.NullArray() }
func (x *bpop) Consumes() bool          { return true }
func (x *bpop) MayBlock() bool          { return true }

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout and BRPOPLPUSH
// source destination timeout. Reply: the element, or nil on timeout.
type blmove struct {
	lmove
	timeout time.Duration
}

func parseBLMove(args [][]byte) (command.Runner, error) {
	m, err := parseLMove(args[:5])
	if err != nil {
		return nil, err
	}
	d, err := command.Timeout(args[5])
	if err != nil {
		return nil, err
	}
	return &blmove{m.(lmove), d}, nil
}

func parseBRPopLPush(args [][]byte) (command.Runner, error) {
	d, err := command.Timeout(args[3])
	if err != nil {
		return nil, err
	}
	return &blmove{lmove{args[1], args[2], false, true}, d}, nil
}

func (x *blmove) Run(c *command.Ctx) error { return x.Serve(c, x.src) }

func (x *blmove) Serve(c *command.Ctx, _ []byte) error {
	v, err := x.move(c)
	if err != nil {
		return err
	}
	if v == nil {
		return command.ErrWouldBlock
	}
	c.W.Bulk(v)
	return nil
}

func (x *blmove) WaitKeys() [][]byte      { return [][]byte{x.src} }
func (x *blmove) ServeKeys() [][]byte     { return [][]byte{x.dst} }
func (x *blmove) Timeout() time.Duration  { return x.timeout }
func (x *blmove) TimedOut(w *resp.Writer) { w.Null() }
func (x *blmove) Consumes() bool          { return true }
func (x *blmove) MayBlock() bool          { return true }

// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]
type blmpop struct {
	lmpop
	timeout time.Duration
}

func parseBLMPop(args [][]byte) (command.Runner, error) {
	d, err := command.Timeout(args[1])
	if err != nil {
		return nil, err
	}
	m, err := parseMPop(args[2:])
	if err != nil {
		return nil, err
	}
	return &blmpop{m, d}, nil
}

func (x *blmpop) Run(c *command.Ctx) error { return command.ServeFirst(c, x, x.keys) }

func (x *blmpop) Serve(c *command.Ctx, key []byte) error { return x.popFrom(c, key) }

func (x *blmpop) WaitKeys() [][]byte      { return x.keys }
func (x *blmpop) ServeKeys() [][]byte     { return nil }
func (x *blmpop) Timeout() time.Duration  { return x.timeout }
func (x *blmpop) TimedOut(w *resp.Writer) { w.NullArray() }
func (x *blmpop) Consumes() bool          { return true }
func (x *blmpop) MayBlock() bool          { return true }
