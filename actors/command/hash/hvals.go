package hash

import "github.com/rekv/rekv/actors/command"

// HVALS key
func parseHVals(args [][]byte) (command.Runner, error) { return hgetAll{args[1], false, true}, nil }
