package list

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/net/resp"
)

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: pops from the first
// non-empty list; replies [key, [elements]] or a nil array.
type lmpop struct {
	keys  [][]byte
	left  bool
	count int64
}

// parseMPop parses from numkeys (args[0]) on, as LMPOP and BLMPOP share it.
func parseMPop(args [][]byte) (lmpop, error) {
	n, ok := resp.ParseInt(args[0])
	if !ok || n <= 0 {
		return lmpop{}, rerr.Errorf("ERR numkeys should be greater than 0")
	}
	if n > int64(len(args))-2 { // no room for LEFT|RIGHT
		return lmpop{}, rerr.ErrSyntax
	}
	x := lmpop{keys: args[1 : 1+n], count: -1}
	rest := args[1+n:]
	left, err := side(rest[0])
	if err != nil {
		return lmpop{}, err
	}
	x.left = left
	for i := 1; i < len(rest); i++ {
		if x.count == -1 && command.Is(rest[i], "count") && i+1 < len(rest) {
			i++
			c, ok := resp.ParseInt(rest[i])
			if !ok || c <= 0 {
				return lmpop{}, rerr.Errorf("ERR count should be greater than 0")
			}
			x.count = c
			continue
		}
		return lmpop{}, rerr.ErrSyntax
	}
	if x.count == -1 {
		x.count = 1
	}
	return x, nil
}

func parseLMPop(args [][]byte) (command.Runner, error) { return parseMPop(args[1:]) }

func (x lmpop) Run(c *command.Ctx) error {
	for _, k := range x.keys {
		err := x.popFrom(c, k)
		if !errors.Is(err, command.ErrWouldBlock) {
			return err
		}
	}
	c.W.NullArray()
	return nil
}

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
	vs, err := popNoted(l, x.left, x.count)
	if err != nil {
		return err
	}
	c.W.Array(2)
	c.W.Bulk(key)
	writeArray(c, vs)
	return nil
}
