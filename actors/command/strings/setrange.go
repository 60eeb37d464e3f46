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
	cur, _, err := c.Tx.GetString(s.key)
	if err != nil {
		return err
	}
	if len(s.val) == 0 {
		c.W.Int(int64(len(cur)))
		return nil
	}
	if s.offset+int64(len(s.val)) > command.MaxStringLen {
		return rerr.ErrStringTooLong
	}
	size := max(int64(len(cur)), s.offset+int64(len(s.val)))
	n := make([]byte, size)
	copy(n, cur)
	copy(n[s.offset:], s.val)
	if err := c.Tx.SetStringKeepTTL(s.key, n); err != nil {
		return err
	}
	c.W.Int(size)
	return nil
}
