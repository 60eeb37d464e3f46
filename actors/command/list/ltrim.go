package list

import "github.com/rekv/rekv/actors/command"

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
	l, err := open(c, x.key, false)
	if err != nil {
		return err
	}
	if l == nil {
		c.W.OK()
		return nil
	}
	from, to := l.span(x.start, x.stop)
	kept := to - from
	switch trimmed := uint64(l.len()) - kept; {
	case kept == 0:
		err = l.c.Drop()
	case trimmed == 0:
	case kept < trimmed:
		err = l.rewrite(from, to)
	default:
		err = l.deleteRange(l.head, from)
		if err == nil {
			err = l.deleteRange(to, l.tail)
		}
		if err == nil {
			err = l.c.SetBounds(from, to)
		}
	}
	if err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// deleteRange deletes the elements at [from, to) without reading them.
func (l *list) deleteRange(from, to uint64) error {
	for i := from; i < to; i++ {
		if err := l.c.Remove(sub(i)); err != nil {
			return err
		}
	}
	return nil
}

// rewrite keeps only [from, to), copied under a new version at the same
// indexes; the old version becomes garbage.
func (l *list) rewrite(from, to uint64) error {
	vs, err := l.values(from, to)
	if err != nil {
		return err
	}
	if err := l.c.Rebase(); err != nil {
		return err
	}
	for k, v := range vs {
		if err := l.c.Put(sub(from+uint64(k)), v); err != nil {
			return err
		}
	}
	l.head, l.tail = from, to
	return l.c.SetBounds(from, to)
}
