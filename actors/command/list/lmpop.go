package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: pops from the first
// non-empty list; replies [key, [elements]] or a nil array.
type lmpop struct {
	command.MPop
	left bool
}

// parseMPop parses from numkeys (args[0]) on, as LMPOP and BLMPOP share it.
func parseMPop(args [][]byte) (lmpop, error) {
	var x lmpop
	m, err := command.ParseMPop(args, func(arg []byte) (err error) {
		x.left, err = side(arg)
		return err
	})
	x.MPop = m
	return x, err
}

func parseLMPop(args [][]byte) (command.Runner, error) { return parseMPop(args[1:]) }

func (x lmpop) Run(c *command.Ctx) error { return command.PopFirst(c, x.Keys, x.popFrom) }

// popFrom pops from key and writes [key, [elements]], or returns
// command.ErrWouldBlock (writing nothing) if key is missing.
func (x lmpop) popFrom(c *command.Ctx, key []byte) error {
	l, err := rlist.Open(c.Tx, key, false)
	if err != nil {
		return err
	}
	if l == nil {
		return command.ErrWouldBlock
	}
	vs, err := popNoted(l, x.left, x.Count)
	if err != nil {
		return err
	}
	popEffect(c, key, x.left, len(vs))
	c.W.Array(2)
	c.W.Bulk(key)
	writeArray(c, vs)
	return nil
}

// popEffect records a pop as LPOP or RPOP key count: what a replica runs
// for LMPOP and the blocking pops, which must not wait there.
func popEffect(c *command.Ctx, key []byte, left bool, n int) {
	if n == 0 {
		return
	}
	name := "RPOP"
	if left {
		name = "LPOP"
	}
	c.Effect([]byte(name), key, command.Itoa(int64(n)))
}
