package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.OBJKEYS key [path]: the member names of the objects path
// matches, in order (JSONPath: nil for a non-object; legacy: the first
// match's, nil when nothing matches or the key is missing).
type objKeys struct{ keyPath }

func parseObjKeys(args [][]byte) (command.Runner, error) {
	return objKeys{optionalPath(args, 1)}, nil
}

func (o objKeys) Run(c *command.Ctx) error {
	d, err := open(c, o.key)
	if err != nil {
		return err
	}
	if d == nil {
		if o.path.legacy {
			c.W.Null()
			return nil
		}
		return errNoKey
	}
	q, err := o.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	names := func(v *rjson.Value) {
		c.W.Array(v.O.Len())
		for _, k := range v.O.Keys {
			c.W.BulkString(k)
		}
	}
	if o.path.legacy {
		switch {
		case len(vals) == 0:
			c.W.Null()
		case vals[0].Kind != rjson.Object:
			return errPathOr(o.path.text, "not an object")
		default:
			names(vals[0])
		}
		return nil
	}
	ok := make([]bool, len(vals))
	for i, v := range vals {
		ok[i] = v.Kind == rjson.Object
	}
	nullable(c, vals, ok, names)
	return nil
}
