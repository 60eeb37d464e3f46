package json

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

type numOp uint8

const (
	opIncr numOp = iota
	opMult
	opPow
)

// JSON.NUMINCRBY / NUMMULTBY / NUMPOWBY key path number: adds, multiplies
// or raises the numbers path matches. An integer with an integer stays
// an integer; anything else becomes a float. JSONPath: the new values
// as a JSON array text (RESP3: an array), nil for non-numbers; legacy:
// the last new value as text.
type num struct {
	op   numOp
	key  []byte
	path path
	by   []byte
}

func parseNum(op numOp) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return num{op: op, key: args[1], path: newPath(args[2]), by: args[3]}, nil
	}
}

var (
	errBadNumber = rerr.Errorf("bad input number")
	errOverflow  = rerr.Errorf("ERR numeric overflow")
	errNaN       = rerr.Errorf("ERR result is not a number")
)

func (n num) Run(c *command.Ctx) error {
	d, err := mustOpen(c, n.key)
	if err != nil {
		return err
	}
	by, err := parseValue(n.by)
	if err != nil {
		return err
	}
	if !by.IsNumber() {
		return errBadNumber
	}
	q, err := n.path.query()
	if err != nil {
		return err
	}
	ms := q.Eval(d.Root)
	results := make([]*rjson.Value, len(ms))
	var last *rjson.Value
	for i, m := range ms {
		if !m.V.IsNumber() {
			continue
		}
		nv, err := n.apply(m.V, by)
		if err != nil {
			return err
		}
		*m.V = *nv
		results[i], last = nv, nv
	}
	if last == nil && n.path.legacy && c.W.Proto() != 3 {
		return errPathOr(n.path.text, "does not contains a number")
	}
	if last != nil {
		if err := d.Save(); err != nil {
			return err
		}
	}
	switch {
	case c.W.Proto() == 3:
		c.W.Array(len(results))
		for _, r := range results {
			switch {
			case r == nil:
				c.W.Null()
			case r.Kind == rjson.Int:
				c.W.Int(r.I)
			default:
				c.W.Double(r.Float64())
			}
		}
	case n.path.legacy:
		writeJSON(c, last)
	default:
		arr := rjson.NewArray(make([]*rjson.Value, len(results)))
		for i, r := range results {
			if arr.A[i] = r; r == nil {
				arr.A[i] = rjson.NewNull()
			}
		}
		writeJSON(c, arr)
	}
	return nil
}

// apply computes v op by.
func (n num) apply(v, by *rjson.Value) (*rjson.Value, error) {
	if v.Kind == rjson.Int && by.Kind == rjson.Int && (n.op != opPow || by.I >= 0) {
		a, b := v.I, by.I
		switch n.op {
		case opIncr:
			s := a + b
			if (s > a) != (b > 0) {
				return nil, errOverflow
			}
			return rjson.NewInt(s), nil
		case opMult:
			p, ok := mulInt(a, b)
			if !ok {
				return nil, errOverflow
			}
			return rjson.NewInt(p), nil
		}
		p, ok := powInt(a, b)
		if !ok {
			return nil, errOverflow
		}
		return rjson.NewInt(p), nil
	}
	a, b := v.Float64(), by.Float64()
	var f float64
	switch n.op {
	case opIncr:
		f = a + b
	case opMult:
		f = a * b
	default:
		f = math.Pow(a, b)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errNaN
	}
	return rjson.NewFloat(f), nil
}

// mulInt multiplies, reporting false on overflow.
func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

// powInt raises a to b >= 0 by squaring, reporting false on overflow.
func powInt(a, b int64) (int64, bool) {
	r := int64(1)
	for b > 0 {
		var ok bool
		if b&1 == 1 {
			if r, ok = mulInt(r, a); !ok {
				return 0, false
			}
		}
		if b >>= 1; b > 0 {
			if a, ok = mulInt(a, a); !ok {
				return 0, false
			}
		}
	}
	return r, true
}
