package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HSET key field value [field value ...]
type hset struct {
	key   []byte
	pairs [][]byte
	ok    bool // HMSET replies +OK
}

func parseHSet(args [][]byte) (command.Runner, error) { return parsePairs(args, "hset", false) }

func parsePairs(args [][]byte, name string, ok bool) (command.Runner, error) {
	if len(args)%2 == 1 {
		return nil, rerr.ErrArity(name)
	}
	return hset{key: args[1], pairs: args[2:], ok: ok}, nil
}

func (h hset) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, true)
	if err != nil {
		return err
	}
	added, err := rhash.Set(coll, h.pairs, c.EncodingLimits().Hash)
	if err != nil {
		return err
	}
	if h.ok {
		c.W.OK()
	} else {
		c.W.Int(added)
	}
	return nil
}
