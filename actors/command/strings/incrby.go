package strings

import (
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// INCRBY key increment
func parseIncrBy(args [][]byte) (command.Runner, error) {
	by, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	return incrBy{key: args[1], by: by}, nil
}

// DECRBY key decrement
func parseDecrBy(args [][]byte) (command.Runner, error) {
	by, err := command.Int(args[2])
	if err != nil {
		return nil, err
	}
	if by == math.MinInt64 {
		return nil, rerr.Errorf("ERR decrement would overflow")
	}
	return incrBy{key: args[1], by: -by}, nil
}
