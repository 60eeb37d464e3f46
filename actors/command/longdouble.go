package command

import (
	"math/big"
	"strings"
)

// Redis does INCRBYFLOAT and HINCRBYFLOAT in C long double (x87 80-bit
// extended: a 64-bit significand, 15-bit exponent) and prints the result
// with "%.17Lf" minus trailing zeros. LongDouble reproduces that exactly
// with math/big at 64 bits of precision, so replies match byte for byte.

const (
	ldPrec   = 64
	ldMaxExp = 16384  // big.Float exponent of the largest finite long double
	ldMinExp = -16444 // below this a long double underflows to zero
)

// LongDouble is a finite long double value.
type LongDouble struct{ f *big.Float }

func newLD() *big.Float { return new(big.Float).SetPrec(ldPrec).SetMode(big.ToNearestEven) }

// ParseLongDouble parses like Redis's string2ld: what strtold accepts
// (decimal, hex, inf), with no spaces, NaN, overflow or underflow.
func ParseLongDouble(b []byte) (LongDouble, bool) {
	if len(b) == 0 || len(b) >= 5*1024 {
		return LongDouble{}, false
	}
	s := string(b)
	if strings.ContainsAny(s, " \t\n\r\v\f_") {
		return LongDouble{}, false
	}
	f, _, err := newLD().Parse(s, 0)
	if err != nil {
		return LongDouble{}, false
	}
	if !f.IsInf() && f.Sign() != 0 { // strtold accepts inf; it fails at Add
		if e := f.MantExp(nil); e > ldMaxExp || e < ldMinExp {
			return LongDouble{}, false
		}
	}
	return LongDouble{f}, true
}

// IsInf reports whether the value is infinite (strtold accepts "inf").
func (a LongDouble) IsInf() bool { return a.f.IsInf() }

// Add returns a+b rounded to long double; ok is false if it overflows.
func (a LongDouble) Add(b LongDouble) (LongDouble, bool) {
	if a.f.IsInf() || b.f.IsInf() {
		return LongDouble{}, false // inf or NaN
	}
	z := newLD().Add(a.f, b.f)
	if z.Sign() != 0 && z.MantExp(nil) > ldMaxExp {
		return LongDouble{}, false
	}
	return LongDouble{z}, true
}

// Format prints a finite value the value as Redis's ld2string with LD_STR_HUMAN does.
func (a LongDouble) Format() []byte {
	s := a.f.Text('f', 17)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		s = "0"
	}
	return []byte(s)
}

// ZeroLongDouble returns 0.
func ZeroLongDouble() LongDouble { return LongDouble{newLD()} }
