package rjson

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest in a parsed value
// (serde_json's recursion limit, which RedisJSON keeps).
const MaxDepth = 128

// SyntaxError is a document that is not JSON, worded as serde_json
// words it ("expected value at line 1 column 1"): RedisJSON replies
// with that text.
type SyntaxError struct {
	Msg          string
	Line, Column int
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at line %d column %d", e.Msg, e.Line, e.Column)
}

type parser struct {
	s     string
	pos   int // next byte
	depth int
}

// Parse parses one JSON value, with nothing but whitespace after it.
func Parse(s string) (*Value, error) {
	p := &parser{s: s, depth: MaxDepth}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.s) {
		return nil, p.errAt("trailing characters", p.pos+1)
	}
	return v, nil
}

// errAt is an error whose column counts the bytes of its line up to
// end (exclusive), as serde_json reports: the offending byte's
// position, or the input's length at its end.
func (p *parser) errAt(msg string, end int) error {
	line, col := 1, 0
	for i := 0; i < end && i < len(p.s); i++ {
		if p.s[i] == '\n' {
			line, col = line+1, 0
		} else {
			col++
		}
	}
	return &SyntaxError{Msg: msg, Line: line, Column: col}
}

// errHere blames the next byte (or the end of the input).
func (p *parser) errHere(msg string) error { return p.errAt(msg, p.pos+1) }

func (p *parser) eof(what string) error {
	return p.errAt("EOF while parsing "+what, len(p.s))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\n', '\t', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (*Value, error) {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return nil, p.eof("a value")
	}
	switch c := p.s[p.pos]; {
	case c == 'n':
		return NewNull(), p.ident("null")
	case c == 't':
		return NewBool(true), p.ident("true")
	case c == 'f':
		return NewBool(false), p.ident("false")
	case c == '"':
		p.pos++
		s, err := p.str()
		return NewString(s), err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == '[':
		return p.array()
	case c == '{':
		return p.object()
	}
	return nil, p.errHere("expected value")
}

func (p *parser) ident(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.s) {
			return p.eof("a value")
		}
		if p.s[p.pos] != word[i] {
			return p.errHere("expected ident")
		}
		p.pos++
	}
	return nil
}

func (p *parser) enter() error {
	p.depth--
	if p.depth < 0 {
		return p.errHere("recursion limit exceeded")
	}
	return nil
}

func (p *parser) array() (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++
	v := NewArray(nil)
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		p.depth++
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.A = append(v.A, e)
		if done, err := p.separator(']', "a list"); err != nil || done {
			return v, err
		}
	}
}

// expect skips whitespace inside an object and reads c, or fails with
// msg (at the end: EOF while parsing it).
func (p *parser) expect(c byte, msg string) error {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return p.eof("an object")
	}
	if p.s[p.pos] != c {
		return p.errHere(msg)
	}
	p.pos++
	return nil
}

// separator reads what follows a member of a container closed by
// closer: a comma (false, a member follows) or closer (true).
func (p *parser) separator(closer byte, what string) (bool, error) {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return false, p.eof(what)
	}
	switch p.s[p.pos] {
	case ',':
		p.pos++
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == closer {
			return false, p.errHere("trailing comma")
		}
		return false, nil
	case closer:
		p.pos++
		p.depth++
		return true, nil
	}
	return false, p.errHere("expected `,` or `" + string(closer) + "`")
}

func (p *parser) object() (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++
	v := NewObject()
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		p.depth++
		return v, nil
	}
	for {
		if err := p.expect('"', "key must be a string"); err != nil {
			return nil, err
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':', "expected `:`"); err != nil {
			return nil, err
		}
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.O.Set(k, e)
		if done, err := p.separator('}', "an object"); err != nil || done {
			return v, err
		}
	}
}

// str reads a string's body after its opening quote.
func (p *parser) str() (string, error) {
	var out []byte
	start := p.pos
	for {
		if p.pos >= len(p.s) {
			return "", p.eof("a string")
		}
		c := p.s[p.pos]
		switch {
		case c == '"':
			if out == nil {
				s := p.s[start:p.pos]
				p.pos++
				return s, nil
			}
			out = append(out, p.s[start:p.pos]...)
			p.pos++
			return string(out), nil
		case c < 0x20:
			return "", p.errHere("control character (\\u0000-\\u001F) found while parsing a string")
		case c == '\\':
			out = append(out, p.s[start:p.pos]...)
			p.pos++
			if p.pos >= len(p.s) {
				return "", p.eof("a string")
			}
			e := p.s[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := p.unicode()
				if err != nil {
					return "", err
				}
				out = utf8.AppendRune(out, r)
			default:
				return "", p.errAt("invalid escape", p.pos)
			}
			start = p.pos
		default:
			p.pos++
		}
	}
}

func (p *parser) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		if p.pos >= len(p.s) {
			return 0, p.eof("a string")
		}
		c := p.s[p.pos]
		p.pos++
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, p.errAt("invalid escape", p.pos)
		}
	}
	return r, nil
}

func (p *parser) unicode() (rune, error) {
	r, err := p.hex4()
	if err != nil {
		return 0, err
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, p.errAt("lone leading surrogate in hex escape", p.pos)
	case r < 0xD800 || r > 0xDBFF:
		return r, nil
	}
	if p.pos+1 >= len(p.s) || p.s[p.pos] != '\\' || p.s[p.pos+1] != 'u' {
		return 0, p.errAt("unexpected end of hex escape", p.pos)
	}
	p.pos += 2
	r2, err := p.hex4()
	if err != nil {
		return 0, err
	}
	if r2 < 0xDC00 || r2 > 0xDFFF {
		return 0, p.errAt("lone leading surrogate in hex escape", p.pos)
	}
	return utf16.DecodeRune(r, r2), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a number: an integer as Int (or Uint above MaxInt64;
// Float past uint64), anything with a fraction or exponent as Float.
func (p *parser) number() (*Value, error) {
	start := p.pos
	neg := p.s[p.pos] == '-'
	if neg {
		p.pos++
	}
	if p.pos >= len(p.s) {
		return nil, p.eof("a value")
	}
	switch c := p.s[p.pos]; {
	case c == '0':
		p.pos++
		if p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			return nil, p.errHere("invalid number")
		}
	case c >= '1' && c <= '9':
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
	default:
		return nil, p.errHere("invalid number")
	}
	float := false
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		float = true
		p.pos++
		if p.pos >= len(p.s) {
			return nil, p.eof("a value")
		}
		if !isDigit(p.s[p.pos]) {
			return nil, p.errHere("invalid number")
		}
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		float = true
		p.pos++
		if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(p.s) {
			return nil, p.eof("a value")
		}
		if !isDigit(p.s[p.pos]) {
			return nil, p.errHere("invalid number")
		}
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
	}
	text := p.s[start:p.pos]
	if !float {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return NewInt(i), nil
		}
		if !neg {
			if u, err := strconv.ParseUint(text, 10, 64); err == nil {
				return &Value{Kind: Uint, U: u}, nil
			}
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, p.errAt("number out of range", p.pos)
	}
	return NewFloat(f), nil
}
