package resp

import (
	"math"
	"testing"
)

// TestParseMemory: Redis's memtoull: units of 1000 and 1024, any case,
// saturation, and what it refuses.
func TestParseMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true}, {"100", 100, true}, {"1k", 1000, true}, {"1KB", 1024, true}, {"2mb", 2 << 20, true},
		{"3g", 3e9, true}, {"1gb", 1 << 30, true}, {"7b", 7, true}, {"99999999999999999999gb", math.MaxUint64, true},
		{"", 0, false}, {"x", 0, false}, {"1tb", 0, false}, {"-1", 0, false}, {"1 kb", 0, false},
	} {
		if got, ok := ParseMemory(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
