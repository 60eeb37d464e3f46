package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// SETBIT key offset value
type setBit struct {
	key []byte
	off int64
	bit int
}

func parseSetBit(args [][]byte) (command.Runner, error) {
	off, err := bitOffset(args[2], 0)
	if err != nil {
		return nil, err
	}
	v, err := command.Int(args[3])
	if err != nil || v&^1 != 0 {
		return nil, errBitValue
	}
	return setBit{key: args[1], off: off, bit: int(v)}, nil
}

func (s setBit) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(s.key)
	if err != nil {
		return err
	}
	old, err := rbitmap.SetBit(str, s.off, s.bit)
	if err != nil {
		return err
	}
	c.W.Int(int64(old))
	return nil
}
