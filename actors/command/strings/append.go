package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// APPEND key value
type appendCmd struct{ key, val []byte }

func parseAppend(args [][]byte) (command.Runner, error) { return appendCmd{args[1], args[2]}, nil }

func (a appendCmd) Run(c *command.Ctx) error {
	cur, _, err := c.Tx.GetString(a.key)
	if err != nil {
		return err
	}
	if int64(len(cur))+int64(len(a.val)) > command.MaxStringLen {
		return rerr.ErrStringTooLong
	}
	n := append(append(make([]byte, 0, len(cur)+len(a.val)), cur...), a.val...)
	if err := c.Tx.SetStringKeepTTL(a.key, n); err != nil {
		return err
	}
	c.W.Int(int64(len(n)))
	return nil
}
