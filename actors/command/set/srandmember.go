package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rset"
)

// SRANDMEMBER key [count]
type srandMember struct {
	key      []byte
	count    int64
	hasCount bool
}

func parseSRandMember(args [][]byte) (command.Runner, error) {
	s := srandMember{key: args[1]}
	switch {
	case len(args) > 3:
		return nil, rerr.ErrSyntax
	case len(args) == 3:
		n, err := command.RandomCount(args[2])
		if err != nil {
			return nil, err
		}
		s.count, s.hasCount = n, true
	}
	return s, nil
}

func (s srandMember) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	if !s.hasCount {
		if set == nil {
			c.W.Null()
			return nil
		}
		p, err := command.RandomMembers(set, 1)
		if err != nil {
			return err
		}
		c.W.Bulk(p[0].Field)
		return nil
	}
	var picked []command.Member
	if set != nil && s.count != 0 {
		if picked, err = command.RandomMembers(set, s.count); err != nil {
			return err
		}
	}
	c.W.Array(len(picked))
	for _, p := range picked {
		c.W.Bulk(p.Field)
	}
	return nil
}
