package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.STRAPPEND key [path] value: appends the JSON string value to the
// strings path matches. JSONPath: each new length in bytes (nil for a
// non-string); legacy: the last one.
type strAppend struct {
	key   []byte
	path  path
	value []byte
}

func parseStrAppend(args [][]byte) (command.Runner, error) {
	s := strAppend{key: args[1], path: rootPath, value: args[2]}
	if len(args) > 3 {
		s.path, s.value = newPath(args[2]), args[3]
	}
	return s, nil
}

func (s strAppend) Run(c *command.Ctx) error {
	d, err := mustOpen(c, s.key)
	if err != nil {
		return err
	}
	v, err := parseValue(s.value)
	if err != nil {
		return err
	}
	if v.Kind != rjson.String {
		return errExpected("string", string(s.value))
	}
	q, err := s.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	lens, ok := make([]int64, len(vals)), make([]bool, len(vals))
	changed := false
	for i, t := range vals {
		if t.Kind == rjson.String {
			t.S += v.S
			lens[i], ok[i], changed = int64(len(t.S)), true, true
		}
	}
	if s.path.legacy && !changed {
		return errPathOr(s.path.text, "not a string")
	}
	if changed {
		if err := d.Save(); err != nil {
			return err
		}
	}
	if s.path.legacy {
		c.W.Int(lastOK(lens, ok))
		return nil
	}
	nullable(c, lens, ok, c.W.Int)
	return nil
}

// lastOK returns the last of vals whose ok is set.
func lastOK(vals []int64, ok []bool) int64 {
	var last int64
	for i := range vals {
		if ok[i] {
			last = vals[i]
		}
	}
	return last
}
