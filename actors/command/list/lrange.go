package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LRANGE key start stop: reads exactly the elements it returns.
type lrange struct {
	key         []byte
	start, stop int64
}

func parseLRange(args [][]byte) (command.Runner, error) {
	start, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	stop, err := command.Int(args[3])
	if err != nil {
		return nil, err
	}
	return lrange{args[1], start, stop}, nil
}

func (x lrange) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Array(0)
		return nil
	}
	from, to := l.Span(x.start, x.stop)
	c.W.Array(int(to - from))
	return l.Scan(from, to, false, func(_ uint64, v []byte) (bool, error) {
		c.W.Bulk(v)
		return true, nil
	})
}
