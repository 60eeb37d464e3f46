package keys

import "github.com/rekv/rekv/actors/command"

// FLUSHALL [ASYNC | SYNC]
func parseFlushAll(args [][]byte) (command.Runner, error) { return parseFlush(args, true) }
