package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// BITCOUNT key [start end [BYTE | BIT]]
//
// Redis looks the key up before it reads the range: a missing key counts 0
// whatever the other arguments, so a bad range is an error kept for Run.
type bitCount struct {
	key        []byte
	whole      bool  // no range given
	zero       bool  // a negative range that is empty whatever the length
	start, end int64 // the range, in bytes or (isBit) bits
	isBit      bool
	err        error // a bad argument, answered once the key exists
}

func parseBitCount(args [][]byte) (command.Runner, error) {
	b := bitCount{key: args[1]}
	switch len(args) {
	case 2:
		b.whole = true
	case 4, 5:
		b.err = b.parseRange(args)
	default:
		b.err = rerr.ErrSyntax
	}
	return b, nil
}

func (b *bitCount) parseRange(args [][]byte) error {
	var err error
	if b.start, err = command.Int(args[2]); err != nil {
		return err
	}
	if b.end, err = command.Int(args[3]); err != nil {
		return err
	}
	if b.start < 0 && b.end < 0 && b.start > b.end {
		b.zero = true
		return nil
	}
	if len(args) == 5 {
		b.isBit, err = bitUnit(args[4])
	}
	return err
}

func (b bitCount) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(b.key)
	if err != nil {
		return err
	}
	if !str.Exists() || b.zero {
		c.W.Int(0)
		return nil
	}
	if b.err != nil {
		return b.err
	}
	from, to, ok := int64(0), str.Len()*8-1, true
	if !b.whole {
		from, to, ok = bitRange(str.Len(), b.start, b.end, b.isBit)
	}
	var n int64
	if ok {
		if n, err = rbitmap.Count(str, from, to); err != nil {
			return err
		}
	}
	c.W.Int(n)
	return nil
}
