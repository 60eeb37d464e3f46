package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.TOGGLE key path: flips the booleans path matches. JSONPath: each
// match's new value as 1 or 0 (nil for a non-boolean); legacy: the last
// new value as "true" or "false".
type toggle struct {
	key  []byte
	path path
}

func parseToggle(args [][]byte) (command.Runner, error) {
	return toggle{key: args[1], path: newPath(args[2])}, nil
}

func (t toggle) Run(c *command.Ctx) error {
	d, err := mustOpen(c, t.key)
	if err != nil {
		return err
	}
	q, err := t.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	out := make([]int64, len(vals))
	ok := make([]bool, len(vals))
	changed := false
	for i, v := range vals {
		if v.Kind == rjson.Bool {
			v.B = !v.B
			if v.B {
				out[i] = 1
			}
			ok[i], changed = true, true
		}
	}
	if t.path.legacy && !changed {
		return errPathOr(t.path.text, "not a bool")
	}
	if changed {
		if err := d.Save(); err != nil {
			return err
		}
	}
	if t.path.legacy {
		if lastOK(out, ok) == 1 {
			c.W.BulkString("true")
		} else {
			c.W.BulkString("false")
		}
		return nil
	}
	nullable(c, out, ok, c.W.Int)
	return nil
}
