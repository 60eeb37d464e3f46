package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZRANK key member [WITHSCORE] and ZREVRANK key member [WITHSCORE]. The
// rank is counted by walking the index from the member's own end.
type zrank struct {
	key, member []byte
	rev, with   bool
}

func rankParser(name string, rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		z := zrank{key: args[1], member: args[2], rev: rev}
		switch {
		case len(args) > 4:
			return nil, rerr.ErrArity(name)
		case len(args) == 4 && !command.Is(args[3], "withscore"):
			return nil, rerr.ErrSyntax
		case len(args) == 4:
			z.with = true
		}
		return z, nil
	}
}

func (z zrank) Run(c *command.Ctx) error {
	set, _, err := rzset.Open(c.Tx, z.key, false)
	if err != nil {
		return err
	}
	s, ok, err := set.Score(z.member)
	if err != nil {
		return err
	}
	if !ok {
		if z.with {
			c.W.NullArray()
		} else {
			c.W.Null()
		}
		return nil
	}
	rank, err := set.Rank(z.member, s, z.rev)
	if err != nil {
		return err
	}
	if !z.with {
		c.W.Int(rank)
		return nil
	}
	c.W.Array(2)
	c.W.Int(rank)
	c.W.Double(s)
	return nil
}
