package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.OBJLEN key [path]: the member counts of the objects path matches
// (JSONPath: nil for a non-object; legacy: the first match's, nil when
// nothing matches or the key is missing).
type objLen struct{ keyPath }

func parseObjLen(args [][]byte) (command.Runner, error) {
	return objLen{optionalPath(args, 1)}, nil
}

func (o objLen) Run(c *command.Ctx) error {
	d, err := open(c, o.key)
	if err != nil {
		return err
	}
	if d == nil {
		if o.path.legacy {
			c.W.Null()
			return nil
		}
		return errPathOr(o.path.text, "not an object")
	}
	q, err := o.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	if o.path.legacy {
		switch {
		case len(vals) == 0:
			c.W.Null()
		case vals[0].Kind != rjson.Object:
			return errExpected("object", vals[0].TypeName())
		default:
			c.W.Int(int64(vals[0].O.Len()))
		}
		return nil
	}
	lens, ok := make([]int64, len(vals)), make([]bool, len(vals))
	for i, v := range vals {
		if v.Kind == rjson.Object {
			lens[i], ok[i] = int64(v.O.Len()), true
		}
	}
	nullable(c, lens, ok, c.W.Int)
	return nil
}
