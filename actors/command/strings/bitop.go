package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// BITOP AND | OR | XOR | NOT destkey key [key ...]
type bitOp struct {
	op   rbitmap.Op
	dest []byte
	srcs [][]byte
}

func parseBitOp(args [][]byte) (command.Runner, error) {
	var op rbitmap.Op
	switch {
	case command.Is(args[1], "and"):
		op = rbitmap.And
	case command.Is(args[1], "or"):
		op = rbitmap.Or
	case command.Is(args[1], "xor"):
		op = rbitmap.Xor
	case command.Is(args[1], "not"):
		op = rbitmap.Not
	default:
		return nil, rerr.ErrSyntax
	}
	if op == rbitmap.Not && len(args) != 4 {
		return nil, errBitopNot
	}
	return bitOp{op: op, dest: args[2], srcs: args[3:]}, nil
}

func (b bitOp) Run(c *command.Ctx) error {
	srcs := make([]*store.Str, len(b.srcs))
	for i, k := range b.srcs {
		s, err := c.Tx.OpenString(k)
		if err != nil {
			return err
		}
		srcs[i] = s
	}
	v, err := rbitmap.Apply(b.op, srcs)
	if err != nil {
		return err
	}
	// The spec's KeyEvent names the event: "set", or "del" when an empty
	// result deleted the destination.
	if len(v) == 0 {
		_, err = c.Tx.Delete(b.dest)
	} else {
		err = c.Tx.SetString(b.dest, v, 0)
	}
	if err != nil {
		return err
	}
	c.W.Int(int64(len(v)))
	return nil
}

// bitOpEvent names BITOP's event: "set" on the destination, or nothing
// when an empty result deleted it (the generic "del" is added then).
func bitOpEvent(_ int, gone bool) string {
	if gone {
		return ""
	}
	return "set"
}
