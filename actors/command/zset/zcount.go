package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZCOUNT key min max
type zcount struct {
	key      []byte
	min, max rzset.ScoreBound
}

func parseZCount(args [][]byte) (command.Runner, error) {
	min, err := parseScoreBound(args[2])
	if err != nil {
		return nil, err
	}
	max, err := parseScoreBound(args[3])
	if err != nil {
		return nil, err
	}
	return zcount{args[1], min, max}, nil
}

func (z zcount) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	es, err := set.ByScore(z.min, z.max, false, 0, -1)
	if err != nil {
		return err
	}
	c.W.Int(int64(len(es)))
	return nil
}
