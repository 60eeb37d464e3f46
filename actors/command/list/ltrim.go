package list

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rlist"
)

// LTRIM key start stop: O(min(trimmed, kept)) writes. The trimmed ends are
// deleted, or, when the survivors are fewer, they are copied to a new
// version and the old one is left to the GC.
type ltrim struct {
	key         []byte
	start, stop int64
}

func parseLTrim(args [][]byte) (command.Runner, error) {
	r, err := parseLRange(args)
	if err != nil {
		return nil, err
	}
	lr := r.(lrange)
	return ltrim(lr), nil
}

func (x ltrim) Run(c *command.Ctx) error {
	l, err := rlist.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.OK()
		return nil
	}
	if err := l.Trim(x.start, x.stop); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
