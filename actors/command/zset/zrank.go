package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
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
	set, _, err := open(c, z.key, false)
	if err != nil {
		return err
	}
	s, ok, err := set.score(z.member)
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
	// Count the entries before the member in the requested direction.
	var rank int64
	target := set.indexKey(s, z.member)
	err = set.ScanEdge(set.ScorePrefix(), z.rev, func(k, _ []byte) (bool, error) {
		if string(k) == string(target) {
			return false, nil
		}
		rank++
		return true, nil
	})
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
