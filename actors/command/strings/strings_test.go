package strings

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(), keys.Commands())
}

func TestParse(t *testing.T) {
	h := harness(t)
	cases := []struct {
		line string
		err  string
	}{
		{"set k v", ""},
		{"set k v nx ex 10", ""},
		{"SET k v XX PX 10 GET", ""},
		{"set k v keepttl get nx", ""},
		{"set k v ex 10 ex 20", ""},
		{"set k v nx xx", "ERR syntax error"},
		{"set k v ex 10 px 10", "ERR syntax error"},
		{"set k v keepttl ex 10", "ERR syntax error"},
		{"set k v ex", "ERR syntax error"},
		{"set k v ex 0", "ERR invalid expire time in 'set' command"},
		{"set k v ex 1.5", "ERR value is not an integer or out of range"},
		{"set k v px -1", "ERR invalid expire time in 'set' command"},
		{"set k", "ERR wrong number of arguments for 'set' command"},
		{"getex k persist", ""},
		{"getex k persist ex 1", "ERR syntax error"},
		{"getex k ex 0", "ERR invalid expire time in 'getex' command"},
		{"setex k 0 v", "ERR invalid expire time in 'setex' command"},
		{"psetex k -5 v", "ERR invalid expire time in 'psetex' command"},
		{"mset a 1 b", "ERR wrong number of arguments for 'mset' command"},
		{"msetnx a", "ERR wrong number of arguments for 'msetnx' command"},
		{"incrby k x", "ERR value is not an integer or out of range"},
		{"decrby k -9223372036854775808", "ERR decrement would overflow"},
		{"incrbyfloat k nan", "ERR value is not a valid float"},
		{"setrange k -1 v", "ERR offset is out of range"},
		{"getrange k 0 x", "ERR value is not an integer or out of range"},
	}
	for _, tc := range cases {
		err := h.Parse(tc.line)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: err %q, want %q", tc.line, got, tc.err)
		}
	}
}

func TestSetAndExpiryWithClock(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"set k v px 100", "+OK\r\n"},
		{"pttl k", ":100\r\n"},
		{"set k v2 keepttl", "+OK\r\n"},
		{"pttl k", ":100\r\n"},
		{"set k v3 get", "$2\r\nv2\r\n"},
		{"pttl k", ":-1\r\n"},
		{"set t v ex 10", "+OK\r\n"},
	})
	h.Now += 9_999
	h.Run([]c{{"get t", "$1\r\nv\r\n"}})
	h.Now++
	h.Run([]c{
		{"get t", "$-1\r\n"},
		{"exists t", ":0\r\n"},
		{"set t v nx", "+OK\r\n"}, // the expired key no longer blocks NX
		{"ttl t", ":-1\r\n"},
		{"incr t", "-ERR value is not an integer or out of range\r\n"},
	})
}

func TestCountersKeepTTL(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"set n 10 ex 100", "+OK\r\n"},
		{"incrby n 5", ":15\r\n"},
		{"decr n", ":14\r\n"},
		{"incrbyfloat n 0.5", "$4\r\n14.5\r\n"},
		{"append n 0", ":5\r\n"},
		{"setrange n 0 2", ":5\r\n"},
		{"get n", "$5\r\n24.50\r\n"},
		{"ttl n", ":100\r\n"},
		{"getset n 1", "$5\r\n24.50\r\n"},
		{"ttl n", ":-1\r\n"},
		{"set big 9223372036854775807", "+OK\r\n"},
		{"incr big", "-ERR increment or decrement would overflow\r\n"},
		{"get big", "$19\r\n9223372036854775807\r\n"},
	})
}

func TestMultiKey(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"mset a 1 b 2", "+OK\r\n"},
		{"msetnx b 3 c 4", ":0\r\n"},
		{"mget a b c", "*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n"},
		{"msetnx c 3 d 4", ":1\r\n"},
		{"getdel c", "$1\r\n3\r\n"},
		{"getdel c", "$-1\r\n"},
		{"strlen d", ":1\r\n"},
		{"getrange d 0 -1", "$1\r\n4\r\n"},
		{"getex d exat 1", "$1\r\n4\r\n"},
		{"exists d", ":0\r\n"},
	})
}

func TestRESP3Null(t *testing.T) {
	h := harness(t)
	h.Proto = 3
	h.Run([]c{{"get nope", "_\r\n"}, {"mget nope", "*1\r\n_\r\n"}})
}

// TestMultiKeyPastOneWarm: MSET and MGET read their keys' cache entries
// ahead sixteen at a time; a command of more keys, some repeated, some
// missing, answers as one that reads none ahead.
func TestMultiKeyPastOneWarm(t *testing.T) {
	h := harness(t)
	var set, get strings.Builder
	set.WriteString("mset")
	get.WriteString("mget")
	want := "*41\r\n"
	for i := range 40 {
		fmt.Fprintf(&set, " k%d v%d", i%37, i)
		fmt.Fprintf(&get, " k%d", i)
	}
	for i := range 40 {
		switch {
		case i >= 37:
			want += "$-1\r\n"
		case i < 3:
			want += fmt.Sprintf("$3\r\nv%d\r\n", i+37) // set twice: the last wins
		default:
			want += fmt.Sprintf("$%d\r\nv%d\r\n", len(fmt.Sprint(i))+1, i)
		}
	}
	get.WriteString(" nope")
	want += "$-1\r\n"
	if got := h.Do(set.String()); got != "+OK\r\n" {
		t.Fatalf("mset: %q", got)
	}
	if got := h.Do(get.String()); got != want {
		t.Fatalf("mget: %q, want %q", got, want)
	}
}
