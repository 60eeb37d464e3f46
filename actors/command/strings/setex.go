package strings

import "github.com/rekv/rekv/actors/command"

// SETEX key seconds value
func parseSetEX(args [][]byte) (command.Runner, error) {
	exp, err := parseExpiry("setex", args[2], true, false)
	if err != nil {
		return nil, err
	}
	return set{key: args[1], val: args[3], extended: extended{exp: exp}, name: "setex"}, nil
}
