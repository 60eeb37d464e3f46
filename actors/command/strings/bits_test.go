package strings

import (
	"fmt"
	"testing"
)

// TestBitEvents checks the events of the bit commands: SETBIT always,
// BITFIELD only when a write was applied, BITOP "set" or, when an empty
// result deletes the destination, "del".
func TestBitEvents(t *testing.T) {
	h := harness(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"setbit b 3 1", []string{"new 0 b", "setbit 0 b"}},
		{"setbit b 3 1", nil},                     // unchanged
		{"setbit b 30 0", []string{"setbit 0 b"}}, // grows
		{"bitfield b get u8 0", nil},
		{"bitfield b overflow fail incrby u8 0 300", nil},
		{"bitfield b incrby u8 0 1 get u8 0", []string{"setbit 0 b"}},
		{"bitfield_ro b get u8 0", nil},
		{"bitop or d b", []string{"new 0 d", "set 0 d"}},
		{"bitop or d missing", []string{"del 0 d"}},
		{"bitop or d missing", nil},
		{"lcs b d", nil},
	} {
		h.Do(tc.line)
		if got := h.Events(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: events %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestBitCommands(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"setbit k 4294967295 1", ":0\r\n"},
		{"strlen k", ":536870912\r\n"},
		{"bitcount k", ":1\r\n"},
		{"bitpos k 1", ":4294967295\r\n"},
		{"bitpos k 0 -1", ":4294967288\r\n"},
		{"bitpos k 0 -1 -1", ":4294967288\r\n"},
		{"bitcount k -1 -1 bit", ":1\r\n"},
		{"getbit k 4294967295", ":1\r\n"},
		{"setbit k 4294967295 0", ":1\r\n"},
		{"bitpos k 1", ":-1\r\n"},
		{"bitfield k set i16 #1000 -2 get u16 #1000", "*2\r\n:0\r\n:65534\r\n"},
		{"getrange k 2000 2001", "$2\r\n\xff\xfe\r\n"},
		{"setrange k 9223372036854775800 x", "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n"},
	})
}
