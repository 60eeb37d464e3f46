package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZLEXCOUNT key min max
type zlexCount struct {
	key      []byte
	min, max rzset.LexBound
}

func parseZLexCount(args [][]byte) (command.Runner, error) {
	min, err := parseLexBound(args[2])
	if err != nil {
		return nil, err
	}
	max, err := parseLexBound(args[3])
	if err != nil {
		return nil, err
	}
	return zlexCount{args[1], min, max}, nil
}

func (z zlexCount) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	es, err := set.ByLex(z.min, z.max, false, 0, -1)
	if err != nil {
		return err
	}
	c.W.Int(int64(len(es)))
	return nil
}
