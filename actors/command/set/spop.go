package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rset"
)

// SPOP key [count]
type spop struct {
	key      []byte
	count    int64
	hasCount bool
}

func parseSPop(args [][]byte) (command.Runner, error) {
	s := spop{key: args[1]}
	switch {
	case len(args) > 3:
		return nil, rerr.ErrSyntax
	case len(args) == 3:
		n, err := command.PositiveCount(args[2])
		if err != nil {
			return nil, err
		}
		s.count, s.hasCount = n, true
	}
	return s, nil
}

func (s spop) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil {
		return err
	}
	if set == nil || s.hasCount && s.count == 0 {
		if s.hasCount {
			c.W.Set(0)
		} else {
			c.W.Null()
		}
		return nil
	}
	n := s.count
	if !s.hasCount {
		n = 1
	}
	picked, err := command.RandomMembers(set, n)
	if err != nil {
		return err
	}
	ms := make([][]byte, len(picked))
	for i, p := range picked {
		ms[i] = p.Field
	}
	if _, err := rset.Remove(set, ms); err != nil {
		return err
	}
	if c.Effects() { // a replica removes the members picked here
		c.Effect(append([][]byte{[]byte("SREM"), s.key}, ms...)...)
	}
	if !s.hasCount {
		c.W.Bulk(ms[0])
		return nil
	}
	writeSet(c, ms)
	return nil
}
