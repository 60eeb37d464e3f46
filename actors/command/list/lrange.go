package list

import "github.com/rekv/rekv/actors/command"

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

// span maps Redis's start/stop (negative from the end, clamped) to list
// indexes [from, to); empty when from >= to.
func (l *list) span(start, stop int64) (from, to uint64) {
	n := l.len()
	if start < 0 {
		start += n
	}
	if stop < 0 {
		stop += n
	}
	start = max(start, 0)
	if start > stop || start >= n {
		return l.head, l.head
	}
	stop = min(stop, n-1)
	return l.head + uint64(start), l.head + uint64(stop) + 1
}

func (x lrange) Run(c *command.Ctx) error {
	l, err := open(c, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.Array(0)
		return nil
	}
	from, to := l.span(x.start, x.stop)
	c.W.Array(int(to - from))
	return l.scan(from, to, false, func(_ uint64, v []byte) (bool, error) {
		c.W.Bulk(v)
		return true, nil
	})
}
