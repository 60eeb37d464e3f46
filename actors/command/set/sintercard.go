package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// SINTERCARD numkeys key [key ...] [LIMIT limit]
type sinterCard struct {
	keys  [][]byte
	limit int64
}

func parseSInterCard(args [][]byte) (command.Runner, error) {
	n, ok := resp.ParseInt(args[1])
	if !ok || n < 1 {
		return nil, rerr.Errorf("ERR numkeys should be greater than 0")
	}
	if n > int64(len(args)-2) {
		return nil, rerr.Errorf("ERR Number of keys can't be greater than number of args")
	}
	s := sinterCard{keys: args[2 : 2+n]}
	for j := 2 + int(n); j < len(args); j++ {
		if command.Is(args[j], "limit") && j+1 < len(args) {
			j++
			l, ok := resp.ParseInt(args[j])
			if !ok || l < 0 {
				return nil, rerr.Errorf("ERR LIMIT can't be negative")
			}
			s.limit = l
			continue
		}
		return nil, rerr.ErrSyntax
	}
	return s, nil
}

func (s sinterCard) Run(c *command.Ctx) error {
	sets, err := openAll(c, s.keys)
	if err != nil {
		return err
	}
	result, err := compute(inter, sets, int(s.limit))
	if err != nil {
		return err
	}
	c.W.Int(int64(len(result)))
	return nil
}
