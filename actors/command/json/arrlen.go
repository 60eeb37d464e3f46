package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.ARRLEN key [path]: the lengths of the arrays path matches
// (JSONPath: nil for a non-array; legacy: the first match's, nil for a
// missing key).
type arrLen struct{ keyPath }

func parseArrLen(args [][]byte) (command.Runner, error) {
	return arrLen{optionalPath(args, 1)}, nil
}

func (a arrLen) Run(c *command.Ctx) error {
	d, err := open(c, a.key)
	if err != nil {
		return err
	}
	if d == nil {
		if a.path.legacy {
			c.W.Null()
			return nil
		}
		return errNoKey
	}
	q, err := a.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	if a.path.legacy {
		switch {
		case len(vals) == 0:
			return errPath(a.path.text)
		case vals[0].Kind != rjson.Array:
			return errPathOr(a.path.text, "not an array")
		}
		c.W.Int(int64(len(vals[0].A)))
		return nil
	}
	lens, ok := make([]int64, len(vals)), make([]bool, len(vals))
	for i, v := range vals {
		if v.Kind == rjson.Array {
			lens[i], ok[i] = int64(len(v.A)), true
		}
	}
	nullable(c, lens, ok, c.W.Int)
	return nil
}
