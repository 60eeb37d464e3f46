package hash

import "github.com/rekv/rekv/actors/command"

// HKEYS key
func parseHKeys(args [][]byte) (command.Runner, error) { return hgetAll{args[1], true, false}, nil }
