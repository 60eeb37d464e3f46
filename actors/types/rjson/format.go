package rjson

import (
	"math"
	"strconv"
	"strings"
)

// Format is JSON.GET's layout: INDENT, NEWLINE and SPACE strings (empty:
// none). The zero Format is the compact form.
type Format struct {
	Indent, Newline, Space string
	Set                    bool // any of the three was given
}

// writer lays values out as RedisJSON's formatter does (serde_json's
// pretty formatter with the three strings): a newline and one indent
// per level before each member, a newline before the closing bracket
// of a container that had a member.
type writer struct {
	f        Format
	buf      []byte
	level    int
	hasValue bool
}

// Append appends v's JSON text to dst.
func Append(dst []byte, v *Value, f Format) []byte {
	w := &writer{f: f, buf: dst}
	w.value(v)
	return w.buf
}

// Marshal returns v's compact JSON text.
func Marshal(v *Value) string { return string(Append(nil, v, Format{})) }

func (w *writer) newline() {
	if !w.f.Set {
		return
	}
	w.buf = append(w.buf, w.f.Newline...)
	for range w.level {
		w.buf = append(w.buf, w.f.Indent...)
	}
}

func (w *writer) value(v *Value) {
	switch v.Kind {
	case Null:
		w.buf = append(w.buf, "null"...)
	case Bool:
		w.buf = strconv.AppendBool(w.buf, v.B)
	case Int:
		w.buf = strconv.AppendInt(w.buf, v.I, 10)
	case Uint:
		w.buf = strconv.AppendUint(w.buf, v.U, 10)
	case Float:
		w.buf = AppendFloat(w.buf, v.F)
	case String:
		w.buf = AppendString(w.buf, v.S)
	case Array:
		w.beginContainer('[')
		for i, e := range v.A {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline()
			w.value(e)
			w.hasValue = true
		}
		w.endContainer(']')
	case Object:
		w.beginContainer('{')
		for i, k := range v.O.Keys {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline()
			w.buf = AppendString(w.buf, k)
			w.buf = append(w.buf, ':')
			w.buf = append(w.buf, w.f.Space...)
			w.value(v.O.Vals[i])
			w.hasValue = true
		}
		w.endContainer('}')
	}
}

func (w *writer) beginContainer(c byte) {
	w.level++
	w.hasValue = false
	w.buf = append(w.buf, c)
}

func (w *writer) endContainer(c byte) {
	w.level--
	if w.hasValue {
		w.newline()
	}
	w.buf = append(w.buf, c)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s quoted as serde_json quotes strings: \" \\ \b
// \f \n \r \t, other control characters as \u00xx, the rest as is.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendFloat appends f as serde_json writes a float (ryu's shortest
// digits): a decimal point always ("1.0", "0.001"), an exponent without
// "+" from 1e16 up and below 1e-5 ("1e300", "1.5e-7").
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest digits d (no dot) and the exponent of their first digit.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	kk := x + 1 // the value is 0.digits x 10^kk
	n := len(digits)
	switch {
	case kk >= n && kk <= 16: // 1234e7 -> 12340000000.0
		dst = append(dst, digits...)
		dst = append(dst, strings.Repeat("0", kk-n)...)
		return append(dst, '.', '0')
	case kk > 0 && kk <= 16: // 1234e-2 -> 12.34
		dst = append(dst, digits[:kk]...)
		dst = append(dst, '.')
		return append(dst, digits[kk:]...)
	case kk > -5 && kk <= 0: // 1234e-6 -> 0.001234
		dst = append(dst, '0', '.')
		dst = append(dst, strings.Repeat("0", -kk)...)
		return append(dst, digits...)
	case n == 1: // 1e30
		dst = append(dst, digits...)
	default: // 1234e30 -> 1.234e33
		dst = append(dst, digits[0], '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, int64(kk-1), 10)
}
