package keys

import "github.com/rekv/rekv/actors/command"

// RENAMENX key newkey
func parseRenameNX(args [][]byte) (command.Runner, error) {
	return rename{src: args[1], dst: args[2], nx: true}, nil
}
