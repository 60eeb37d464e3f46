package hash

import (
	"fmt"
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

func TestHashBasics(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"hset h a 1 b 2 a 3", ":2\r\n"},
		{"hget h a", "$1\r\n3\r\n"},
		{"hlen h", ":2\r\n"},
		{"hgetall h", "*4\r\n$1\r\na\r\n$1\r\n3\r\n$1\r\nb\r\n$1\r\n2\r\n"},
		{"hdel h a b", ":2\r\n"},
		{"exists h", ":0\r\n"},
		{"type h", "+none\r\n"},
		{"set s x", "+OK\r\n"},
		{"hset s f v", "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
		{"hset s", "-ERR wrong number of arguments for 'hset' command\r\n"},
		{"hset h2 f v", ":1\r\n"},
		{"expire h2 10", ":1\r\n"},
	})
	h.Proto = 3
	h.Run([]c{{"hgetall h2", "%1\r\n$1\r\nf\r\n$1\r\nv\r\n"}, {"hget h2 x", "_\r\n"}})
	h.Now += 10_000
	h.Run([]c{
		{"hlen h2", ":0\r\n"},
		{"hset h2 g w", ":1\r\n"}, // a new incarnation: the expired field f is gone
		{"hgetall h2", "%1\r\n$1\r\ng\r\n$1\r\nw\r\n"},
		{"ttl h2", ":-1\r\n"},
	})
}

func TestHScanPagesAndNoValues(t *testing.T) {
	h := harness(t)
	h.Run([]c{{"hset h a 1 b 2 c 3 d 4 e 5", ":5\r\n"}})
	seen := map[string]int{}
	cursor := "0"
	for i := 0; ; i++ {
		if i > 10 {
			t.Fatal("HSCAN did not finish")
		}
		out := h.Do("hscan h " + cursor + " count 2")
		parts := strings.Split(out, "\r\n")
		cursor = parts[2]
		// Fields and values alternate after the inner array header.
		for j := 5; j+2 < len(parts); j += 4 {
			seen[parts[j]]++
		}
		if cursor == "0" {
			break
		}
	}
	if fmt.Sprint(seen) != "map[a:1 b:1 c:1 d:1 e:1]" {
		t.Fatalf("HSCAN saw %v", seen)
	}
	h.Run([]c{
		{"hscan h 0 novalues match [ab]", "*2\r\n$1\r\n0\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n"},
		{"hscan h 0 novalues count", "-ERR syntax error\r\n"},
	})
}

func TestHRandField(t *testing.T) {
	h := harness(t)
	h.Run([]c{{"hset h a 1 b 2 c 3 d 4 e 5", ":5\r\n"}})
	if got := h.Do("hrandfield h 3"); !strings.HasPrefix(got, "*3\r\n") {
		t.Fatalf("count 3: %q", got)
	}
	if got := h.Do("hrandfield h 10"); !strings.HasPrefix(got, "*5\r\n") {
		t.Fatalf("count 10 of 5: %q", got)
	}
	if got := h.Do("hrandfield h -10"); !strings.HasPrefix(got, "*10\r\n") {
		t.Fatalf("count -10: %q", got)
	}
	for i := 0; i < 20; i++ { // distinct members for a positive count
		got := h.Do("hrandfield h 5")
		for _, f := range []string{"a", "b", "c", "d", "e"} {
			if !strings.Contains(got, "\r\n"+f+"\r\n") {
				t.Fatalf("count 5 of 5 lacks %s: %q", f, got)
			}
		}
	}
	h.Proto = 3
	if got := h.Do("hrandfield h 1 withvalues"); !strings.HasPrefix(got, "*1\r\n*2\r\n$1\r\n") {
		t.Fatalf("RESP3 WITHVALUES: %q", got)
	}
}
