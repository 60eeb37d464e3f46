package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
)

// ZINCRBY key increment member
func parseZIncrBy(args [][]byte) (command.Runner, error) {
	s, err := command.Float(args[2])
	if err != nil {
		return nil, err
	}
	return zadd{key: args[1], incr: true, entries: []rzset.Entry{{Member: args[3], Score: s}}}, nil
}
