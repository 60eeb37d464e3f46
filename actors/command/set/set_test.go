package set

import (
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
	stringsCmd "github.com/rekv/rekv/actors/command/strings"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(), keys.Commands(), stringsCmd.Commands())
}

func TestSetBasicsAndAlgebra(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"sadd a 1 2 3 4", ":4\r\n"},
		{"sadd b 3 4 5", ":3\r\n"},
		{"sinter a b", "*2\r\n$1\r\n3\r\n$1\r\n4\r\n"},
		{"sunion a b", "*5\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n"},
		{"sdiff a b", "*2\r\n$1\r\n1\r\n$1\r\n2\r\n"},
		{"sintercard 2 a b limit 1", ":1\r\n"},
		{"sinterstore a a b", ":2\r\n"}, // the destination may be a source
		{"smembers a", "*2\r\n$1\r\n3\r\n$1\r\n4\r\n"},
		{"sdiffstore c a a", ":0\r\n"},
		{"exists c", ":0\r\n"},
		{"srem a 3 4", ":2\r\n"},
		{"exists a", ":0\r\n"},
		{"set s x", "+OK\r\n"},
		{"sadd s m", "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
		{"sunionstore s b", ":3\r\n"}, // STORE overwrites a key of any type
		{"type s", "+set\r\n"},
	})
	h.Proto = 3
	h.Run([]c{{"smembers b", "~3\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n"}, {"spop nokey 2", "~0\r\n"}})
}

func TestSPopAndSRandMember(t *testing.T) {
	h := harness(t)
	h.Run([]c{{"sadd s a b c d e", ":5\r\n"}})
	got := h.Do("spop s 2")
	if !strings.HasPrefix(got, "*2\r\n") {
		t.Fatalf("SPOP 2 = %q", got)
	}
	h.Run([]c{{"scard s", ":3\r\n"}})
	for _, m := range strings.Split(got, "\r\n")[2:] {
		if m != "" && !strings.HasPrefix(m, "$") {
			h.Run([]c{{"sismember s " + m, ":0\r\n"}}) // popped members are gone
		}
	}
	if got := h.Do("srandmember s -7"); !strings.HasPrefix(got, "*7\r\n") {
		t.Fatalf("SRANDMEMBER -7 = %q", got)
	}
	if got := h.Do("srandmember s 7"); !strings.HasPrefix(got, "*3\r\n") {
		t.Fatalf("SRANDMEMBER 7 of 3 = %q", got)
	}
	if got := h.Do("spop s 10"); !strings.HasPrefix(got, "*3\r\n") {
		t.Fatalf("SPOP 10 of 3 = %q", got)
	}
	h.Run([]c{{"exists s", ":0\r\n"}})
}
