package zset

import "github.com/rekv/rekv/actors/command"

// ZREVRANGE key start stop [WITHSCORES]
func parseZRevRange(args [][]byte) (command.Runner, error) {
	rs, err := parseRange(args, 2, byRankKind, true, true, true, false)
	return zrange{args[1], rs}, err
}
