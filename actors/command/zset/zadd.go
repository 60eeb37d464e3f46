package zset

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]
type zadd struct {
	key                      []byte
	nx, xx, gt, lt, ch, incr bool
	entries                  []rzset.Entry
}

func parseZAdd(args [][]byte) (command.Runner, error) {
	z := zadd{key: args[1]}
	i := 2
	for ; i < len(args); i++ {
		switch a := args[i]; {
		case command.Is(a, "nx"):
			z.nx = true
		case command.Is(a, "xx"):
			z.xx = true
		case command.Is(a, "gt"):
			z.gt = true
		case command.Is(a, "lt"):
			z.lt = true
		case command.Is(a, "ch"):
			z.ch = true
		case command.Is(a, "incr"):
			z.incr = true
		default:
			goto done
		}
	}
done:
	rest := args[i:]
	if len(rest) == 0 || len(rest)%2 != 0 {
		return nil, rerr.ErrSyntax
	}
	if z.incr && len(rest) > 2 {
		return nil, rerr.Errorf("ERR INCR option supports a single increment-element pair")
	}
	if z.nx && z.xx {
		return nil, rerr.Errorf("ERR XX and NX options at the same time are not compatible")
	}
	if z.gt && z.nx || z.lt && z.nx || z.gt && z.lt {
		return nil, rerr.Errorf("ERR GT, LT, and/or NX options at the same time are not compatible")
	}
	for j := 0; j < len(rest); j += 2 {
		s, err := command.Float(rest[j])
		if err != nil {
			return nil, err
		}
		z.entries = append(z.entries, rzset.Entry{Member: rest[j+1], Score: s})
	}
	return z, nil
}

func (z zadd) Run(c *command.Ctx) error {
	set, exists, err := rzset.Open(c.Tx, z.key, !z.xx)
	if err != nil {
		return err
	}
	var added, changed int64
	var last float64
	done := false
	if exists || !z.xx {
		batch := set.Batch(c.EncodingLimits().ZSet)
		for _, e := range z.entries {
			cur, had, err := set.Score(e.Member)
			if err != nil {
				return err
			}
			score := e.Score
			if z.incr && had {
				score += cur
			}
			if math.IsNaN(score) {
				return rerr.Errorf("ERR resulting score is not a number (NaN)")
			}
			if had && (z.nx || z.gt && score <= cur || z.lt && score >= cur) || !had && z.xx {
				continue
			}
			isNew, err := batch.Set(e.Member, score)
			if err != nil {
				return err
			}
			switch {
			case isNew:
				added++
			case cur != score:
				changed++
			}
			last, done = score, true
		}
		if _, err := batch.Close(); err != nil {
			return err
		}
	}
	switch {
	case z.incr && done:
		c.W.Double(last)
	case z.incr:
		c.W.Null()
	case z.ch:
		c.W.Int(added + changed)
	default:
		c.W.Int(added)
	}
	return nil
}
