package hash

import "github.com/rekv/rekv/actors/command"

// HMSET key field value [field value ...]
func parseHMSet(args [][]byte) (command.Runner, error) { return parsePairs(args, "hmset", true) }
