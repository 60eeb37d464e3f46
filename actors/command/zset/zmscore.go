package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZMSCORE key member [member ...]
type zmscore struct {
	key     []byte
	members [][]byte
}

func parseZMScore(args [][]byte) (command.Runner, error) { return zmscore{args[1], args[2:]}, nil }

func (z zmscore) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	type res struct {
		s  float64
		ok bool
	}
	out := make([]res, len(z.members))
	for i, m := range z.members {
		if out[i].s, out[i].ok, err = set.Score(m); err != nil {
			return err
		}
	}
	c.W.Array(len(out))
	for _, r := range out {
		if r.ok {
			c.W.Double(r.s)
		} else {
			c.W.Null()
		}
	}
	return nil
}
