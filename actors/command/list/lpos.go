package list

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/resp"
)

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
type lpos struct {
	key, elem []byte
	rank      int64
	count     int64 // -1: no COUNT, a single reply
	maxlen    int64 // 0: the whole list
}

func parseLPos(args [][]byte) (command.Runner, error) {
	x := lpos{key: args[1], elem: args[2], rank: 1, count: -1}
	for i := 3; i < len(args); i++ {
		more := i+1 < len(args)
		switch {
		case command.Is(args[i], "rank") && more:
			i++
			n, ok := resp.ParseInt(args[i])
			if !ok {
				return nil, rerr.ErrNotInteger
			}
			if n == 0 {
				return nil, rerr.Errorf("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list")
			}
			x.rank = n
		case command.Is(args[i], "count") && more:
			i++
			n, ok := resp.ParseInt(args[i])
			if !ok || n < 0 {
				return nil, rerr.Errorf("ERR COUNT can't be negative")
			}
			x.count = n
		case command.Is(args[i], "maxlen") && more:
			i++
			n, ok := resp.ParseInt(args[i])
			if !ok || n < 0 {
				return nil, rerr.Errorf("ERR MAXLEN can't be negative")
			}
			x.maxlen = n
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return x, nil
}

func (x lpos) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		if x.count >= 0 {
			c.W.Array(0)
		} else {
			c.W.Null()
		}
		return nil
	}
	rev, rank := x.rank < 0, x.rank
	if rev {
		rank = -rank // -2^63 stays negative and, as in Redis 7.0, takes the first match
	}
	from, to := l.Head(), l.Tail()
	if x.maxlen > 0 && x.maxlen < l.Len() {
		if rev {
			from = l.Tail() - uint64(x.maxlen)
		} else {
			to = l.Head() + uint64(x.maxlen)
		}
	}
	var found []int64
	var matches int64
	err = l.Scan(from, to, rev, func(i uint64, v []byte) (bool, error) {
		if !bytes.Equal(v, x.elem) {
			return true, nil
		}
		matches++
		if matches < rank {
			return true, nil
		}
		found = append(found, int64(i-l.Head()))
		return x.count == 0 || (x.count > 0 && int64(len(found)) < x.count), nil
	})
	if err != nil {
		return err
	}
	if x.count < 0 {
		if len(found) == 0 {
			c.W.Null()
		} else {
			c.W.Int(found[0])
		}
		return nil
	}
	c.W.Array(len(found))
	for _, p := range found {
		c.W.Int(p)
	}
	return nil
}
