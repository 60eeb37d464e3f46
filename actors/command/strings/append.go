package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// APPEND key value
type appendCmd struct{ key, val []byte }

func parseAppend(args [][]byte) (command.Runner, error) { return appendCmd{args[1], args[2]}, nil }

func (a appendCmd) Run(c *command.Ctx) error {
	cur, ok, err := c.Tx.GetString(a.key)
	if err != nil {
		return err
	}
	if int64(len(cur))+int64(len(a.val)) > command.MaxStringLen {
		return rerr.ErrStringTooLong
	}
	var expireAt int64
	if ok {
		m, _, err := c.Tx.Meta(a.key)
		if err != nil {
			return err
		}
		expireAt = m.ExpireAt
	}
	n := append(append(make([]byte, 0, len(cur)+len(a.val)), cur...), a.val...)
	if err := c.Tx.SetString(a.key, n, expireAt); err != nil {
		return err
	}
	c.W.Int(int64(len(n)))
	return nil
}
