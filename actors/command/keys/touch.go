package keys

import "github.com/rekv/rekv/actors/command"

// TOUCH key [key ...]: counts the keys that exist, a key named twice
// twice. Redis also refreshes their LRU/LFU clocks; rekv keeps none, so
// TOUCH runs as EXISTS does.
func parseTouch(args [][]byte) (command.Runner, error) { return exists{args[1:]}, nil }
