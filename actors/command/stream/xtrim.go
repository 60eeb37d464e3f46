package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
)

// XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]: how many entries
// it deleted.
type xtrim struct {
	key  []byte
	trim trimSpec
}

func parseXTrim(args [][]byte) (command.Runner, error) {
	x := &xtrim{key: args[1]}
	for i := 2; i < len(args); {
		next, err := x.trim.parseTrimOption(args, i)
		if err != nil {
			return nil, err
		}
		if next == i {
			return nil, rerr.ErrSyntax
		}
		i = next
	}
	if !x.trim.set {
		return nil, rerr.ErrSyntax
	}
	if err := x.trim.check(); err != nil {
		return nil, err
	}
	return x, nil
}

func (x *xtrim) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	var n int64
	if s != nil {
		if n, err = x.trim.apply(c, s); err != nil {
			return err
		}
		if n > 0 && x.trim.approx { // exact, to the length left here
			c.Effect([]byte("XTRIM"), x.key, []byte("MAXLEN"), []byte("="), command.Itoa(s.Len()))
		}
	}
	c.W.Int(n)
	return nil
}
