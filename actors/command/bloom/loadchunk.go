package bloom

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// BF.LOADCHUNK key iterator data: restores what BF.SCANDUMP returned, in
// order: iterator 1 with the header makes the (missing) key a filter,
// the later ones fill its bits.
type loadChunk struct {
	key, data []byte
	iter      int64
}

func parseLoadChunk(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.Errorf("ERR Second argument must be numeric")
	}
	return loadChunk{key: args[1], iter: n, data: args[3]}, nil
}

func (l loadChunk) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, l.key)
	if err != nil {
		return err
	}
	if f == nil {
		if l.iter != 1 {
			return errNotFound
		}
		chain, err := rbloom.DecodeChain(l.data)
		if err != nil {
			return rerr.Errorf("ERR received bad data")
		}
		if _, err := rbloom.Create(c.Tx, l.key, chain); err != nil {
			return err
		}
		c.W.OK()
		return nil
	}
	if err := f.LoadChunk(l.iter, l.data); err != nil {
		if errors.Is(err, rbloom.ErrBadChunk) || errors.Is(err, rbloom.ErrNoLink) || errors.Is(err, rbloom.ErrChunkTooBig) {
			return rerr.Errorf("ERR %s", err.Error())
		}
		return err
	}
	if err := f.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
