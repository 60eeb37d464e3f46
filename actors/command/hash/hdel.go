package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HDEL key field [field ...]
type hdel struct {
	key    []byte
	fields [][]byte
}

func parseHDel(args [][]byte) (command.Runner, error) { return hdel{args[1], args[2:]}, nil }

func (h hdel) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil || coll == nil {
		c.W.Int(0)
		return err
	}
	n, err := rhash.Delete(coll, h.fields)
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
