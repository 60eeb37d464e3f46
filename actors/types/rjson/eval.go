package rjson

import (
	"math"
	"regexp"
)

// PathElem is one step from a value to a member (Key) or element
// (Index) of it.
type PathElem struct {
	Key     string
	Index   int
	IsIndex bool
}

// Match is a value a query found and the path to it from the root.
type Match struct {
	V    *Value
	Path []PathElem
}

type evaluator struct {
	root    *Value
	out     []Match
	regexps map[string]*regexp.Regexp
}

// Eval returns the values q finds in root, in RedisJSON's order: depth
// first, members and elements in order; a descent (..) tries the rest
// of the query on a value before its descendants.
func (q *Query) Eval(root *Value) []Match {
	e := &evaluator{root: root}
	e.run(q.steps, root, nil)
	return e.out
}

// Values returns the values q finds in root.
func (q *Query) Values(root *Value) []*Value {
	ms := q.Eval(root)
	out := make([]*Value, len(ms))
	for i, m := range ms {
		out[i] = m.V
	}
	return out
}

func extend(path []PathElem, el PathElem) []PathElem {
	out := make([]PathElem, len(path), len(path)+1)
	copy(out, path)
	return append(out, el)
}

// absIndex maps a requested index to a position as RedisJSON does:
// past the end stays past it, a negative one counts from the end and
// stops at 0.
func absIndex(i int64, n int) int {
	if i >= 0 {
		return int(min(i, int64(n)))
	}
	return int(max(i+int64(n), 0))
}

func (e *evaluator) run(steps []step, v *Value, path []PathElem) {
	if len(steps) == 0 {
		e.out = append(e.out, Match{V: v, Path: path})
		return
	}
	s, rest := steps[0], steps[1:]
	switch s.kind {
	case stepScan:
		e.run(rest, v, path)
		e.scan(rest, v, path)
	case stepAll:
		e.children(v, path, func(c *Value, p []PathElem) { e.run(rest, c, p) })
	case stepKeys:
		if v.Kind != Object {
			return
		}
		for _, k := range s.keys {
			if c := v.O.Get(k); c != nil {
				e.run(rest, c, extend(path, PathElem{Key: k}))
			}
		}
	case stepIndexes:
		if v.Kind != Array {
			return
		}
		for _, i := range s.indexes {
			if j := absIndex(i, len(v.A)); j < len(v.A) {
				e.run(rest, v.A[j], extend(path, PathElem{Index: j, IsIndex: true}))
			}
		}
	case stepRange:
		if v.Kind != Array {
			return
		}
		n := len(v.A)
		from, to := 0, n
		if s.from != nil {
			from = absIndex(*s.from, n)
		}
		if s.to != nil {
			to = absIndex(*s.to, n)
		}
		for j := from; j < to; {
			e.run(rest, v.A[j], extend(path, PathElem{Index: j, IsIndex: true}))
			if s.by >= to-j { // also keeps j + by from overflowing
				break
			}
			j += s.by
		}
	case stepFilter:
		if v.Kind == Array || v.Kind == Object {
			e.children(v, path, func(c *Value, p []PathElem) {
				if e.test(s.filter, c) {
					e.run(rest, c, p)
				}
			})
		} else if e.test(s.filter, v) {
			e.run(rest, v, path)
		}
	}
}

// children calls fn with each member or element of v.
func (e *evaluator) children(v *Value, path []PathElem, fn func(*Value, []PathElem)) {
	switch v.Kind {
	case Object:
		for i, k := range v.O.Keys {
			fn(v.O.Vals[i], extend(path, PathElem{Key: k}))
		}
	case Array:
		for i, c := range v.A {
			fn(c, extend(path, PathElem{Index: i, IsIndex: true}))
		}
	}
}

// scan tries steps on every descendant of v, each before its own.
func (e *evaluator) scan(steps []step, v *Value, path []PathElem) {
	e.children(v, path, func(c *Value, p []PathElem) {
		e.run(steps, c, p)
		e.scan(steps, c, p)
	})
}

// test evaluates a filter on v: && binds tighter than ||.
func (e *evaluator) test(f *filterExpr, v *Value) bool {
	result := e.unit(f.units[0], v)
	for i, and := range f.ands {
		if !and {
			if result {
				return true
			}
			return e.test(&filterExpr{units: f.units[i+1:], ands: f.ands[i+1:]}, v)
		}
		if result {
			result = e.unit(f.units[i+1], v)
		}
	}
	return result
}

// operand is an evaluated filter term: a value found by a sub-path, a
// literal, or invalid (a sub-path that found no value or several).
type operand struct {
	invalid bool
	v       *Value
}

func (e *evaluator) unit(u filterUnit, v *Value) bool {
	if u.group != nil {
		return e.test(u.group, v)
	}
	a := e.term(u.a, v)
	if u.op == "" {
		return !a.invalid
	}
	b := e.term(u.b, v)
	if a.invalid || b.invalid {
		return u.op == "!="
	}
	switch u.op {
	case "==":
		return eq(a.v, b.v)
	case "!=":
		return !eq(a.v, b.v)
	case "=~":
		return e.match(a.v, b.v)
	}
	c, ok := compare(a.v, b.v)
	if !ok {
		return false
	}
	switch u.op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func (e *evaluator) term(t term, v *Value) operand {
	switch t.kind {
	case termCurrent, termRoot:
		from := v
		if t.kind == termRoot {
			from = e.root
		}
		if len(t.steps) == 0 {
			return operand{v: from}
		}
		sub := &evaluator{root: e.root, regexps: e.regexps}
		sub.run(t.steps, from, nil)
		if len(sub.out) != 1 {
			return operand{invalid: true}
		}
		return operand{v: sub.out[0].V}
	case termInt:
		return operand{v: NewInt(t.i)}
	case termFloat:
		return operand{v: NewFloat(t.f)}
	case termString:
		return operand{v: NewString(t.s)}
	case termBool:
		return operand{v: NewBool(t.b)}
	}
	return operand{v: NewNull()}
}

// eq is a filter's ==: containers by their contents, scalars as
// compare orders them.
func eq(a, b *Value) bool {
	if a.Kind == Array || a.Kind == Object || b.Kind == Array || b.Kind == Object {
		return Equal(a, b)
	}
	c, ok := compare(a, b)
	return ok && c == 0
}

// compare orders two scalars of the same family: numbers (integers and
// floats together), strings, booleans (false first), nulls; anything
// else is not comparable.
func compare(a, b *Value) (int, bool) {
	switch {
	case a.IsNumber() && b.IsNumber():
		if a.Kind == Int && b.Kind == Int {
			return cmpOrdered(a.I, b.I), true
		}
		x, y := a.Float64(), b.Float64()
		if math.IsNaN(x) || math.IsNaN(y) {
			return 0, false
		}
		return cmpOrdered(x, y), true
	case a.Kind == String && b.Kind == String:
		return cmpOrdered(a.S, b.S), true
	case a.Kind == Bool && b.Kind == Bool:
		return cmpOrdered(boolInt(a.B), boolInt(b.B)), true
	case a.Kind == Null && b.Kind == Null:
		return 0, true
	}
	return 0, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOrdered[T int | int64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// match is =~: the string a matches the regular expression b (RE2
// syntax, unanchored); anything else, or a pattern that does not
// compile, does not match.
func (e *evaluator) match(a, b *Value) bool {
	if a.Kind != String || b.Kind != String {
		return false
	}
	re, ok := e.regexps[b.S]
	if !ok {
		re, _ = regexp.Compile(b.S)
		if e.regexps == nil {
			e.regexps = map[string]*regexp.Regexp{}
		}
		e.regexps[b.S] = re
	}
	return re != nil && re.MatchString(a.S)
}
