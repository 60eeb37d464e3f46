package zset

import "github.com/rekv/rekv/actors/command"

// ZRANGEBYLEX key min max [LIMIT offset count] and
// ZREVRANGEBYLEX key max min [LIMIT offset count]
func byLexParser(rev bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		rs, err := parseRange(args, 2, byLexKind, true, rev, true, false)
		return zrange{args[1], rs}, err
	}
}
