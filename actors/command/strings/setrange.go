package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SETRANGE key offset value
type setRange struct {
	key, val []byte
	offset   int64
}

func parseSetRange(args [][]byte) (command.Runner, error) {
	off, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	if off < 0 {
		return nil, rerr.ErrOffsetRange
	}
	return setRange{key: args[1], val: args[3], offset: off}, nil
}

func (s setRange) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(s.key)
	if err != nil {
		return err
	}
	if len(s.val) == 0 {
		c.W.Int(str.Len())
		return nil
	}
	if s.offset > command.MaxStringLen-int64(len(s.val)) {
		return rerr.ErrStringTooLong
	}
	if err := str.Write(s.offset, s.val); err != nil {
		return err
	}
	c.W.Int(str.Len())
	return nil
}
