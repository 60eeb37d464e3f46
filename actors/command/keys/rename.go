package keys

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// RENAME key newkey. Atomic across shards: the router holds both keys'
// shards and the move is one transaction.
type rename struct {
	src, dst []byte
	nx       bool
}

func parseRename(args [][]byte) (command.Runner, error) {
	return rename{src: args[1], dst: args[2]}, nil
}

func (r rename) Run(c *command.Ctx) error {
	ok, err := c.Tx.Exists(r.src)
	if err != nil {
		return err
	}
	if !ok {
		return rerr.ErrNoSuchKey
	}
	if bytes.Equal(r.src, r.dst) {
		r.reply(c, false)
		return nil
	}
	if r.nx {
		taken, err := c.Tx.Exists(r.dst)
		if err != nil {
			return err
		}
		if taken {
			r.reply(c, false)
			return nil
		}
	}
	if err := c.Tx.Rename(r.src, r.dst); err != nil {
		return err
	}
	r.reply(c, true)
	return nil
}

func (r rename) reply(c *command.Ctx, moved bool) {
	switch {
	case !r.nx:
		c.W.OK()
	case moved:
		c.W.Int(1)
	default:
		c.W.Int(0)
	}
}

// renameEvent names RENAME's events: rename_from for the source (the key
// it deleted), rename_to for the destination.
func renameEvent(_ int, gone bool) string {
	if gone {
		return "rename_from"
	}
	return "rename_to"
}
