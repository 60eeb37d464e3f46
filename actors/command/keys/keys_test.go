package keys

import (
	"fmt"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/hash"
	"github.com/rekv/rekv/actors/command/set"
	"github.com/rekv/rekv/actors/command/strings"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(), strings.Commands())
}

func TestExpireOptions(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"set k v", "+OK\r\n"},
		{"expire k 100 xx", ":0\r\n"},
		{"expire k 100 gt", ":0\r\n"},
		{"expire k 100 lt", ":1\r\n"},
		{"expire k 50 nx", ":0\r\n"},
		{"expire k 200 gt", ":1\r\n"},
		{"expire k 300 lt", ":0\r\n"},
		{"ttl k", ":200\r\n"},
		{"pexpire k 1500", ":1\r\n"},
		{"ttl k", ":2\r\n"}, // rounds like Redis
		{"expire k 1 nx xx", "-ERR NX and XX, GT or LT options at the same time are not compatible\r\n"},
		{"expire k 1 gt lt", "-ERR GT and LT options at the same time are not compatible\r\n"},
		{"expire k 1 bogus", "-ERR Unsupported option bogus\r\n"},
		{"expire k 9223372036854775807", "-ERR invalid expire time in 'expire' command\r\n"},
		{"persist k", ":1\r\n"},
		{"persist k", ":0\r\n"},
		{"expiretime k", ":-1\r\n"},
		{"expireat k 1", ":1\r\n"},
		{"exists k", ":0\r\n"},
		{"ttl k", ":-2\r\n"},
	})
}

func TestExpiryIsLazyAndExact(t *testing.T) {
	h := harness(t)
	h.Run([]c{{"set k v", "+OK\r\n"}, {"pexpire k 10", ":1\r\n"}, {"pexpiretime k", ":1700000000010\r\n"}})
	h.Now += 9
	h.Run([]c{{"pttl k", ":1\r\n"}, {"type k", "+string\r\n"}})
	h.Now++
	h.Run([]c{{"pttl k", ":-2\r\n"}, {"type k", "+none\r\n"}, {"del k", ":0\r\n"}, {"dbsize", ":0\r\n"}})
}

func TestDelExistsRename(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"mset a 1 b 2", "+OK\r\n"},
		{"exists a a b x", ":3\r\n"},
		{"del a x", ":1\r\n"},
		{"unlink b", ":1\r\n"},
		{"rename a z", "-ERR no such key\r\n"},
		{"set a 1 ex 100", "+OK\r\n"},
		{"rename a a", "+OK\r\n"},
		{"renamenx a a", ":0\r\n"},
		{"set b 2", "+OK\r\n"},
		{"renamenx a b", ":0\r\n"},
		{"rename a b", "+OK\r\n"},
		{"get b", "$1\r\n1\r\n"},
		{"ttl b", ":100\r\n"},
		{"exists a", ":0\r\n"},
	})
}

func TestKeysScanDBSizeFlush(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"mset user:1 a user:2 b order:1 c", "+OK\r\n"},
		{"keys user:*", "*2\r\n$6\r\nuser:1\r\n$6\r\nuser:2\r\n"},
		{"keys *:1", "*2\r\n$7\r\norder:1\r\n$6\r\nuser:1\r\n"},
		{"keys nomatch*", "*0\r\n"},
		{"dbsize", ":3\r\n"},
		{"scan 0 count 10 match user:*", "*2\r\n$1\r\n0\r\n*2\r\n$6\r\nuser:1\r\n$6\r\nuser:2\r\n"},
		{"scan 0 type hash", "*2\r\n$1\r\n0\r\n*0\r\n"},
		{"scan x", "-ERR invalid cursor\r\n"},
		{"scan 0 count 0", "-ERR syntax error\r\n"},
		{"scan 0 match", "-ERR syntax error\r\n"},
		{"flushdb bogus", "-ERR syntax error\r\n"},
		{"flushdb", "+OK\r\n"},
		{"dbsize", ":0\r\n"},
		{"randomkey", "$-1\r\n"},
	})
}

// TestFlushHidesFromEveryReader checks FLUSHDB's marker hides old keys from
// KEYS, SCAN, DBSIZE, RANDOMKEY and type reads, while keys written after it
// are seen, and FLUSHALL covers every db.
func TestFlushHidesFromEveryReader(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"mset a 1 b 2 c 3", "+OK\r\n"},
		{"flushdb", "+OK\r\n"},
		{"set d 4", "+OK\r\n"},
		{"keys *", "*1\r\n$1\r\nd\r\n"},
		{"scan 0", "*2\r\n$1\r\n0\r\n*1\r\n$1\r\nd\r\n"},
		{"dbsize", ":1\r\n"},
		{"randomkey", "$1\r\nd\r\n"},
		{"type a", "+none\r\n"},
		{"set a new", "+OK\r\n"},
		{"get a", "$3\r\nnew\r\n"},
		{"ttl a", ":-1\r\n"},
	})
	h.DB = 3
	h.Run([]c{{"set x 1", "+OK\r\n"}, {"flushall", "+OK\r\n"}, {"dbsize", ":0\r\n"}})
	h.DB = 0
	h.Run([]c{{"dbsize", ":0\r\n"}, {"exists a d", ":0\r\n"}})
}

func TestTouch(t *testing.T) {
	harness(t).Run([]c{
		{"touch", "-ERR wrong number of arguments for 'touch' command\r\n"},
		{"set a 1", "+OK\r\n"},
		{"set b 2", "+OK\r\n"},
		{"touch a b missing a", ":3\r\n"},
		{"touch missing", ":0\r\n"},
	})
}

// TestEvents checks the keyspace events the specs declare, through the
// same execution path as the server (actors.Runtime.Step).
func TestEvents(t *testing.T) {
	h := harness(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"set a 1 ex 100", []string{"new 0 a", "set 0 a", "expire 0 a"}},
		{"rename a b", []string{"new 0 b", "rename_from 0 a", "rename_to 0 b"}},
		{"expire b 0", []string{"del 0 b"}},
		{"set c 1", []string{"new 0 c", "set 0 c"}},
		{"touch c", nil},
		{"incrby c 2", []string{"incrby 0 c"}},
		{"getdel c", []string{"del 0 c"}},
		{"set x 1", []string{"new 0 x", "set 0 x"}},
		{"copy x c", []string{"new 0 c", "copy_to 0 c"}},
		{"copy x c", nil},
		{"move c 1", []string{"new 1 c", "move_from 0 c", "move_to 1 c"}},
		{"move c 1", nil},
	} {
		h.Do(tc.line)
		if got := h.Events(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: events %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestRandomKeyReachesEveryKey is the Redis suite's RANDOMKEY test, made
// stricter: with keys whose names are close together and far apart, each
// is drawn a fair share of 400 draws.
func TestRandomKeyReachesEveryKey(t *testing.T) {
	h := harness(t)
	for _, k := range []string{"foo", "bar", "foa", "zzzzzzzz", "b"} {
		h.Do("set " + k + " x")
	}
	h.Do("set gone x px 1") // expired keys are never drawn
	h.Now += 10
	seen := map[string]int{}
	for i := 0; i < 400; i++ {
		seen[h.Do("randomkey")]++
	}
	for _, k := range []string{"foo", "bar", "foa", "zzzzzzzz", "b"} {
		if n := seen[fmt.Sprintf("$%d\r\n%s\r\n", len(k), k)]; n < 20 {
			t.Errorf("%s drawn %d times of 400: %v", k, n, seen)
		}
	}
	if len(seen) != 5 {
		t.Errorf("drew %v", seen)
	}
	h.Do("flushdb")
	if got := h.Do("randomkey"); got != "$-1\r\n" {
		t.Errorf("empty db: %q", got)
	}
}

func TestObjectEncodingThresholds(t *testing.T) {
	h := commandtest.New(t, Commands(), hash.Commands(), set.Commands())
	fill := func(cmd string, n int) {
		for i := 0; i < n; i++ {
			h.Do(fmt.Sprintf(cmd, i))
		}
	}
	fill("hset h f%d v", 512) // Redis 7.0's hash-max-listpack-entries
	fill("sadd s %d", 512)
	h.Run([]c{
		{"object encoding h", "$8\r\nlistpack\r\n"},
		{"object encoding s", "$6\r\nintset\r\n"},
		{"hset h f512 v", ":1\r\n"},
		{"sadd s 512", ":1\r\n"},
		{"object encoding h", "$9\r\nhashtable\r\n"},
		{"object encoding s", "$9\r\nhashtable\r\n"},
		{"hdel h f512", ":1\r\n"},
		{"srem s 512", ":1\r\n"},
		{"object encoding h", "$9\r\nhashtable\r\n"}, // kept, as in Redis
		{"object encoding s", "$9\r\nhashtable\r\n"},
	})
	const head = "*13\r\n+OBJECT <subcommand> "
	if got := h.Do("object help"); len(got) < len(head) || got[:len(head)] != head {
		t.Errorf("OBJECT HELP = %q", got)
	}
}
