package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZSCORE key member
type zscore struct{ key, member []byte }

func parseZScore(args [][]byte) (command.Runner, error) { return zscore{args[1], args[2]}, nil }

func (z zscore) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	s, ok, err := set.Score(z.member)
	if err != nil {
		return err
	}
	if ok {
		c.W.Double(s)
	} else {
		c.W.Null()
	}
	return nil
}
