package zset

import "github.com/rekv/rekv/actors/command"

// ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count] and
// ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]
func byScoreParser(rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		rs, err := parseRange(args, 2, byScoreKind, true, rev, true, false)
		return zrange{args[1], rs}, err
	}
}
