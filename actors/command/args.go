package command

import (
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// MaxStringLen is the largest string value (proto-max-bulk-len).
const MaxStringLen = 512 << 20

// Is reports whether arg equals the lower-case word, ignoring ASCII case.
func Is(arg []byte, word string) bool {
	if len(arg) != len(word) {
		return false
	}
	for i, c := range arg {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return true
}

// Int parses an integer argument as Redis does, or returns ErrNotInteger.
func Int(arg []byte) (int64, error) {
	v, ok := resp.ParseInt(arg)
	if !ok {
		return 0, rerr.ErrNotInteger
	}
	return v, nil
}

// ParseFloat parses a float as Redis's string2ld does: no spaces, no NaN.
func ParseFloat(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 5000 {
		return 0, false
	}
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '_' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	if math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// Float parses a float argument, or returns ErrNotFloat.
func Float(arg []byte) (float64, error) {
	f, ok := ParseFloat(arg)
	if !ok {
		return 0, rerr.ErrNotFloat
	}
	return f, nil
}

// Copy returns a copy of b that does not alias it.
func Copy(b []byte) []byte { return append([]byte{}, b...) }

// PositiveCount parses the count of SPOP, ZPOPMIN and ZPOPMAX: a
// non-negative integer, else Redis's "must be positive" error.
func PositiveCount(arg []byte) (int64, error) {
	n, ok := resp.ParseInt(arg)
	if !ok || n < 0 {
		return 0, rerr.Errorf("ERR value is out of range, must be positive")
	}
	return n, nil
}
