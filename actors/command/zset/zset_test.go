package zset

import (
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(), keys.Commands())
}

// TestScoreOrder checks the index orders negative, zero and infinite
// scores, and equal scores by member bytes.
func TestScoreOrder(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"zadd z 0 zero -0 negzero -1.5 neg +inf top -inf bottom 1e-300 tiny 0 a", ":7\r\n"},
		{"zrange z 0 -1", "*7\r\n$6\r\nbottom\r\n$3\r\nneg\r\n$1\r\na\r\n$7\r\nnegzero\r\n$4\r\nzero\r\n$4\r\ntiny\r\n$3\r\ntop\r\n"},
		{"zscore z negzero", "$1\r\n0\r\n"},
		{"zcount z 0 0", ":3\r\n"},
		{"zcount z (0 +inf", ":2\r\n"},
		{"zcount z -inf (0", ":2\r\n"},
		{"zrank z zero", ":4\r\n"},
		{"zrevrank z zero", ":2\r\n"},
		{"zrank z top withscore", "*2\r\n:6\r\n$3\r\ninf\r\n"},
		{"zrank z nope withscore", "*-1\r\n"},
		{"zrank z top withscores", "-ERR syntax error\r\n"},
	})
	h.Proto = 3
	h.Run([]c{
		{"zrank z neg withscore", "*2\r\n:1\r\n,-1.5\r\n"},
		{"zrange z 0 0 withscores", "*1\r\n*2\r\n$6\r\nbottom\r\n,-inf\r\n"},
		{"zpopmin z", "*2\r\n$6\r\nbottom\r\n,-inf\r\n"},
		{"zpopmax z 1", "*1\r\n*2\r\n$3\r\ntop\r\n,inf\r\n"},
		{"zscore z nope", "_\r\n"},
	})
}

func TestUpdatesKeepIndexConsistent(t *testing.T) {
	h := harness(t)
	h.Run([]c{
		{"zadd z 1 a 2 b 3 c", ":3\r\n"},
		{"zadd z 10 a", ":0\r\n"},
		{"zincrby z -20 b", "$3\r\n-18\r\n"},
		{"zrange z 0 -1 withscores", "*6\r\n$1\r\nb\r\n$3\r\n-18\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\na\r\n$2\r\n10\r\n"},
		{"zcard z", ":3\r\n"},
		{"zrem z b", ":1\r\n"},
		{"zrangebyscore z -inf +inf", "*2\r\n$1\r\nc\r\n$1\r\na\r\n"},
		{"zremrangebyscore z -inf +inf", ":2\r\n"},
		{"exists z", ":0\r\n"},
	})
}

func TestRandMember(t *testing.T) {
	h := harness(t)
	h.Run([]c{{"zadd z 1 a 2 b 3 c", ":3\r\n"}})
	if got := h.Do("zrandmember z -5 withscores"); !strings.HasPrefix(got, "*10\r\n") {
		t.Fatalf("ZRANDMEMBER -5 WITHSCORES = %q", got)
	}
	if got := h.Do("zrandmember z 5"); !strings.HasPrefix(got, "*3\r\n") {
		t.Fatalf("ZRANDMEMBER 5 of 3 = %q", got)
	}
}
