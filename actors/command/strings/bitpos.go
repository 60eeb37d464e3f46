package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// BITPOS key bit [start [end [BYTE | BIT]]]
//
// A missing key answers before the range is read (0 for a clear bit, -1
// for a set one), so a bad range is an error kept for Run.
type bitPos struct {
	key        []byte
	bit        int
	whole      bool
	start, end int64
	endGiven   bool
	isBit      bool
	err        error
}

func parseBitPos(args [][]byte) (command.Runner, error) {
	bit, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	if bit&^1 != 0 {
		return nil, errBitArg
	}
	b := bitPos{key: args[1], bit: int(bit)}
	switch len(args) {
	case 3:
		b.whole = true
	case 4, 5, 6:
		b.err = b.parseRange(args)
	default:
		b.err = rerr.ErrSyntax
	}
	return b, nil
}

func (b *bitPos) parseRange(args [][]byte) error {
	var err error
	if b.start, err = command.Int(args[3]); err != nil {
		return err
	}
	if len(args) == 6 {
		if b.isBit, err = bitUnit(args[5]); err != nil {
			return err
		}
	}
	if len(args) >= 5 {
		b.endGiven = true
		b.end, err = command.Int(args[4])
	}
	return err
}

func (b bitPos) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(b.key)
	if err != nil {
		return err
	}
	if !str.Exists() {
		c.W.Int(-int64(b.bit)) // 0 for a clear bit, -1 for a set one
		return nil
	}
	if b.err != nil {
		return b.err
	}
	end := b.end
	if !b.endGiven {
		end = -1
	}
	from, to, ok := int64(0), str.Len()*8-1, str.Len() > 0
	if !b.whole {
		from, to, ok = bitRange(str.Len(), b.start, end, b.isBit)
	}
	if !ok {
		c.W.Int(-1)
		return nil
	}
	pos, err := rbitmap.Pos(str, b.bit, from, to)
	if err != nil {
		return err
	}
	if pos < 0 && b.bit == 0 && !b.endGiven {
		// No clear bit up to the end of the string: the string reads as
		// followed by zeros, so the answer is the first bit after it.
		pos = (to/8 + 1) * 8
	}
	c.W.Int(pos)
	return nil
}
