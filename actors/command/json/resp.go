package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.RESP key [path]: the values path matches in RESP form: null as
// nil, booleans as the simple strings true and false, integers as
// integers, floats as doubles, strings as bulk strings, arrays as "["
// then their elements, objects as "{" then names and values.
type respCmd struct{ keyPath }

func parseResp(args [][]byte) (command.Runner, error) {
	return respCmd{optionalPath(args, 1)}, nil
}

func (r respCmd) Run(c *command.Ctx) error {
	d, err := open(c, r.key)
	if err != nil {
		return err
	}
	if d == nil {
		c.W.Null()
		return nil
	}
	q, err := r.path.query()
	if err != nil {
		return err
	}
	vals := q.Values(d.Root)
	if r.path.legacy {
		if len(vals) == 0 {
			return errPath(r.path.text)
		}
		writeRESP(c, vals[0])
		return nil
	}
	c.W.Array(len(vals))
	for _, v := range vals {
		writeRESP(c, v)
	}
	return nil
}

func writeRESP(c *command.Ctx, v *rjson.Value) {
	switch v.Kind {
	case rjson.Null:
		c.W.Null()
	case rjson.Bool:
		if v.B {
			c.W.Simple("true")
		} else {
			c.W.Simple("false")
		}
	case rjson.Int:
		c.W.Int(v.I)
	case rjson.Uint, rjson.Float:
		c.W.Double(v.Float64())
	case rjson.String:
		c.W.BulkString(v.S)
	case rjson.Array:
		c.W.Array(len(v.A) + 1)
		c.W.Simple("[")
		for _, e := range v.A {
			writeRESP(c, e)
		}
	case rjson.Object:
		c.W.Array(2*v.O.Len() + 1)
		c.W.Simple("{")
		for i, k := range v.O.Keys {
			c.W.BulkString(k)
			writeRESP(c, v.O.Vals[i])
		}
	}
}
