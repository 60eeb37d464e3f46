package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.STRLEN key [path]: the length in bytes of the strings path
// matches. JSONPath: one per match, nil for a non-string; legacy: the
// first match's (an error if it is not a string), nil for a missing
// key.
type strLen struct{ keyPath }

func parseStrLen(args [][]byte) (command.Runner, error) {
	return strLen{optionalPath(args, 1)}, nil
}

func (s strLen) Run(c *command.Ctx) error {
	d, err := open(c, s.key)
	if err != nil {
		return err
	}
	if d == nil {
		if s.path.legacy {
			c.W.Null()
			return nil
		}
		return errNoKey
	}
	q, err := s.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	if s.path.legacy {
		switch {
		case len(vals) == 0:
			return errPath(s.path.text)
		case vals[0].Kind != rjson.String:
			return errExpected("string", vals[0].TypeName())
		}
		c.W.Int(int64(len(vals[0].S)))
		return nil
	}
	lens, ok := make([]int64, len(vals)), make([]bool, len(vals))
	for i, v := range vals {
		if v.Kind == rjson.String {
			lens[i], ok[i] = int64(len(v.S)), true
		}
	}
	nullable(c, lens, ok, c.W.Int)
	return nil
}
