package strings

import "github.com/rekv/rekv/actors/command"

// PSETEX key milliseconds value
func parsePSetEX(args [][]byte) (command.Runner, error) {
	exp, err := parseExpiry("psetex", args[2], false, false)
	if err != nil {
		return nil, err
	}
	return set{key: args[1], val: args[3], extended: extended{exp: exp}, name: "psetex"}, nil
}
