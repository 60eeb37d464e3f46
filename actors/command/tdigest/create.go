package tdigest

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rtdigest"
)

// TDIGEST.CREATE key [COMPRESSION compression]: an empty digest keeping
// about compression centroids (default 100).
type create struct {
	key  []byte
	opts [][]byte // COMPRESSION and its value, checked once the key is free
}

func parseCreate(args [][]byte) (command.Runner, error) {
	if len(args) != 2 && len(args) != 4 {
		return nil, rerr.ErrArity("tdigest.create")
	}
	return create{key: args[1], opts: args[2:]}, nil
}

func (cr create) Run(c *command.Ctx) error {
	s, err := rtdigest.Open(c.Tx, cr.key)
	if err != nil {
		return err // WRONGTYPE for another type
	}
	if s != nil {
		return errExists
	}
	n := int64(100)
	if len(cr.opts) == 2 {
		if !command.Is(cr.opts[0], "compression") {
			return errKeyword
		}
		if n, err = compression(cr.opts[1]); err != nil {
			return err
		}
	}
	if n > rtdigest.MaxCompression {
		return errNoMemory
	}
	s, err = rtdigest.Create(c.Tx, cr.key, n)
	if err != nil {
		return err
	}
	if err := s.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
