package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// GETBIT key offset
type getBit struct {
	key []byte
	off int64
}

func parseGetBit(args [][]byte) (command.Runner, error) {
	off, err := bitOffset(args[2], 0)
	if err != nil {
		return nil, err
	}
	return getBit{key: args[1], off: off}, nil
}

func (g getBit) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(g.key)
	if err != nil {
		return err
	}
	b, err := rbitmap.GetBit(str, g.off)
	if err != nil {
		return err
	}
	c.W.Int(int64(b))
	return nil
}
