package command

import (
	"bytes"
	"testing"

	"github.com/rekv/rekv/actors/rerr"
)

// TestParseMPop: numkeys, then the where argument, then COUNT are checked
// in Redis's order, each with its error.
func TestParseMPop(t *testing.T) {
	where := func(arg []byte) error {
		if !Is(arg, "left") {
			return rerr.ErrSyntax
		}
		return nil
	}
	for _, tc := range []struct {
		line  string
		keys  int
		count int64
		err   string
	}{
		{"2 a b left", 2, 1, ""},
		{"1 a left count 3", 1, 3, ""},
		{"0 a left", 0, 0, "ERR numkeys should be greater than 0"},
		{"x a left", 0, 0, "ERR numkeys should be greater than 0"},
		{"3 a b left", 0, 0, "ERR syntax error"},
		{"1 a middle count 0", 0, 0, "ERR syntax error"}, // where before COUNT
		{"1 a left count 0", 0, 0, "ERR count should be greater than 0"},
		{"1 a left count 2 count 3", 0, 0, "ERR syntax error"},
		{"1 a left extra", 0, 0, "ERR syntax error"},
	} {
		m, err := ParseMPop(bytes.Fields([]byte(tc.line)), where)
		var got string
		if err != nil {
			got = err.Error()
		}
		if got != tc.err || (err == nil && (len(m.Keys) != tc.keys || m.Count != tc.count)) {
			t.Errorf("%q: %d keys, count %d, err %q; want %d, %d, %q", tc.line, len(m.Keys), m.Count, got, tc.keys, tc.count, tc.err)
		}
	}
}
