package rjson

import (
	"fmt"
	"strconv"
	"strings"
)

// A Query is a compiled JSONPath, in RedisJSON's dialect: $ then steps
// .key, ['key', "key"...], [index, index...] (negative from the end),
// [start:end:step], * and [*], ..step (descend), and [?(filter)] with
// @ / $ sub-paths, numbers, strings, true, false and null, the
// comparisons == != < <= > >= and =~ (regex), && before ||, and
// parentheses. Spaces may separate tokens.
type Query struct {
	steps []step
}

type stepKind uint8

const (
	stepKeys    stepKind = iota // one or more member names
	stepAll                     // * : every member or element
	stepIndexes                 // [i, j, ...]
	stepRange                   // [start:end:step]
	stepFilter                  // [?(...)]
	stepScan                    // .. : the rest here and in every descendant
)

type step struct {
	kind    stepKind
	keys    []string
	indexes []int64
	// a range: each bound absent (nil) or set; step >= 1
	from, to *int64
	by       int
	filter   *filterExpr
}

// filterExpr is a chain of units joined by && and || (ands[i] joins
// units[i] and units[i+1]).
type filterExpr struct {
	units []filterUnit
	ands  []bool
}

type filterUnit struct {
	group *filterExpr // a parenthesized filter, or
	a     term        // a test: a alone, or a op b
	op    string
	b     term
}

type termKind uint8

const (
	termCurrent termKind = iota // @ and a sub-path
	termRoot                    // $ and a sub-path
	termInt
	termFloat
	termString
	termBool
	termNull
)

type term struct {
	kind  termKind
	steps []step
	i     int64
	f     float64
	s     string
	b     bool
}

// SyntaxErr is a path that does not compile, with the position RedisJSON
// names.
type PathError struct {
	Path string
	Pos  int
}

func (e *PathError) Error() string {
	return fmt.Sprintf("Error occurred on position %d, \"%s ---->>>> %s\", path error.", e.Pos, e.Path[:e.Pos], e.Path[e.Pos:])
}

type pathParser struct {
	s   string
	pos int
}

// Compile compiles a JSONPath (it starts with $).
func Compile(path string) (*Query, error) {
	p := &pathParser{s: path}
	p.space()
	if !p.eat("$") {
		return nil, p.fail()
	}
	steps, err := p.steps(true)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.fail()
	}
	return &Query{steps: steps}, nil
}

func (p *pathParser) fail() error { return &PathError{Path: p.s, Pos: min(p.pos, len(p.s))} }

func (p *pathParser) space() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *pathParser) peek(s string) bool {
	p.space()
	return strings.HasPrefix(p.s[p.pos:], s)
}

func (p *pathParser) eat(s string) bool {
	if p.peek(s) {
		p.pos += len(s)
		return true
	}
	return false
}

func isLiteralByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_`~+#%$^/:", c) >= 0
}

func (p *pathParser) literal() (string, bool) {
	p.space()
	start := p.pos
	for p.pos < len(p.s) && isLiteralByte(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos], p.pos > start
}

// steps parses the steps after $ or @; first allows a bare literal or *
// right after it.
func (p *pathParser) steps(first bool) ([]step, error) {
	var out []step
	if first {
		if lit, ok := p.literal(); ok {
			out = append(out, step{kind: stepKeys, keys: []string{lit}})
		} else if p.eat("*") {
			out = append(out, step{kind: stepAll})
		}
	}
	for {
		save := p.pos
		var s step
		var err error
		switch {
		case p.eat(".."):
			out = append(out, step{kind: stepScan})
			s, err = p.member()
		case p.eat("."):
			s, err = p.member()
		case p.eat("["):
			s, err = p.bracket()
		default:
			p.pos = save
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// member parses what follows "." or "..": a name, *, or a bracket.
func (p *pathParser) member() (step, error) {
	if lit, ok := p.literal(); ok {
		return step{kind: stepKeys, keys: []string{lit}}, nil
	}
	if p.eat("*") {
		return step{kind: stepAll}, nil
	}
	if p.eat("[") {
		return p.bracket()
	}
	return step{}, p.fail()
}

// bracket parses what follows "[" up to and including "]".
func (p *pathParser) bracket() (step, error) {
	var s step
	switch {
	case p.eat("*"):
		s.kind = stepAll
	case p.eat("?"):
		f, err := p.filter()
		if err != nil {
			return s, err
		}
		s.kind, s.filter = stepFilter, f
	case p.peek("'") || p.peek("\""):
		s.kind = stepKeys
		for {
			str, err := p.str()
			if err != nil {
				return s, err
			}
			s.keys = append(s.keys, str)
			if !p.eat(",") {
				break
			}
		}
	default:
		var err error
		if s, err = p.numbers(); err != nil {
			return s, err
		}
	}
	if !p.eat("]") {
		return s, p.fail()
	}
	return s, nil
}

// number parses -?(0|[1-9][0-9]*).
func (p *pathParser) number() (int64, bool) {
	p.space()
	start := p.pos
	if p.pos < len(p.s) && p.s[p.pos] == '-' {
		p.pos++
	}
	d := p.pos
	if p.pos < len(p.s) && p.s[p.pos] == '0' {
		p.pos++
	} else {
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
	}
	if p.pos == d {
		p.pos = start
		return 0, false
	}
	n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
	if err != nil {
		p.pos = start
		return 0, false
	}
	return n, true
}

// numbers parses an index list or a range.
func (p *pathParser) numbers() (step, error) {
	s := step{by: 1}
	a, okA := p.number()
	if p.eat(":") {
		s.kind = stepRange
		if okA {
			s.from = &a
		}
		if b, ok := p.number(); ok {
			s.to = &b
		}
		if p.eat(":") {
			p.space()
			if n, ok := p.number(); ok {
				if n < 1 {
					return s, p.fail()
				}
				s.by = int(n)
			}
		}
		return s, nil
	}
	if !okA {
		return s, p.fail()
	}
	s.kind, s.indexes = stepIndexes, []int64{a}
	for p.eat(",") {
		n, ok := p.number()
		if !ok {
			return s, p.fail()
		}
		s.indexes = append(s.indexes, n)
	}
	return s, nil
}

// str parses a quoted string: '...' or "..." where a backslash escapes
// the quote or a backslash.
func (p *pathParser) str() (string, error) {
	p.space()
	if p.pos >= len(p.s) {
		return "", p.fail()
	}
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == q:
			p.pos++
			return b.String(), nil
		case c == '\\' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == q || p.s[p.pos+1] == '\\'):
			b.WriteByte(p.s[p.pos+1])
			p.pos += 2
		case c == '\\':
			return "", p.fail()
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", p.fail()
}

func (p *pathParser) filter() (*filterExpr, error) {
	f := &filterExpr{}
	for {
		var u filterUnit
		if p.eat("(") {
			g, err := p.filter()
			if err != nil {
				return nil, err
			}
			if !p.eat(")") {
				return nil, p.fail()
			}
			u.group = g
		} else {
			a, err := p.term()
			if err != nil {
				return nil, err
			}
			u.a = a
			for _, op := range []string{">=", "<=", "==", "!=", "=~", ">", "<"} {
				if p.eat(op) {
					u.op = op
					if u.b, err = p.term(); err != nil {
						return nil, err
					}
					break
				}
			}
		}
		f.units = append(f.units, u)
		switch {
		case p.eat("&&"):
			f.ands = append(f.ands, true)
		case p.eat("||"):
			f.ands = append(f.ands, false)
		default:
			return f, nil
		}
	}
}

func (p *pathParser) term() (term, error) {
	p.space()
	switch {
	case p.eat("@"):
		steps, err := p.steps(true)
		return term{kind: termCurrent, steps: steps}, err
	case p.eat("$"):
		steps, err := p.steps(true)
		return term{kind: termRoot, steps: steps}, err
	case p.peek("'") || p.peek("\""):
		s, err := p.str()
		return term{kind: termString, s: s}, err
	case p.eat("true"):
		return term{kind: termBool, b: true}, nil
	case p.eat("false"):
		return term{kind: termBool}, nil
	case p.eat("null"):
		return term{kind: termNull}, nil
	}
	start := p.pos
	if _, ok := p.number(); !ok {
		return term{}, p.fail()
	}
	if p.pos < len(p.s) && p.s[p.pos] == '.' && p.pos+1 < len(p.s) && isDigit(p.s[p.pos+1]) {
		p.pos++
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
	}
	text := strings.TrimLeft(p.s[start:p.pos], " ")
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return term{kind: termInt, i: i}, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return term{}, p.fail()
	}
	return term{kind: termFloat, f: f}, nil
}

// IsStatic reports whether q names at most one place: keys and single
// indexes only.
func (q *Query) IsStatic() bool {
	for _, s := range q.steps {
		switch {
		case s.kind == stepKeys && len(s.keys) == 1, s.kind == stepIndexes && len(s.indexes) == 1:
		default:
			return false
		}
	}
	return true
}

// Parent returns q without its last step, and that step's member name
// (ok false when it is not a member name).
func (q *Query) Parent() (*Query, string, bool) {
	if len(q.steps) == 0 {
		return nil, "", false
	}
	last := q.steps[len(q.steps)-1]
	parent := &Query{steps: q.steps[:len(q.steps)-1]}
	if last.kind != stepKeys || len(last.keys) != 1 {
		return parent, "", false
	}
	return parent, last.keys[0], true
}

// IsRoot reports whether q is $ alone.
func (q *Query) IsRoot() bool { return len(q.steps) == 0 }

// Normalize returns the JSONPath a path means and whether it was in the
// legacy syntax (not starting with "$." / "$[" / "$"): "." is $, ".a"
// is $.a, "a" is $.a.
func Normalize(path string) (string, bool) {
	if strings.HasPrefix(path, "$") && (len(path) < 2 || path[1] == '.' || path[1] == '[') {
		return path, false
	}
	switch {
	case path == ".":
		return "$", true
	case strings.HasPrefix(path, "."):
		return "$" + path, true
	}
	return "$." + path, true
}
