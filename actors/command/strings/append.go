package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// APPEND key value
type appendCmd struct{ key, val []byte }

func parseAppend(args [][]byte) (command.Runner, error) { return appendCmd{args[1], args[2]}, nil }

func (a appendCmd) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(a.key)
	if err != nil {
		return err
	}
	if str.Len()+int64(len(a.val)) > command.MaxStringLen {
		return rerr.ErrStringTooLong
	}
	if err := str.Write(str.Len(), a.val); err != nil {
		return err
	}
	c.W.Int(str.Len())
	return nil
}
