package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// DEBUG: refused, as Redis 7 refuses it with its default
// enable-debug-command no (an immutable parameter in rekv too). None of
// its subcommands is implemented.
type debugCmd struct{}

var errDebugNotAllowed = &rerr.Error{Msg: "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", " +
	"you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server."}

func parseDebug([][]byte) (command.Runner, error) { return debugCmd{}, nil }

func (debugCmd) Run(*command.Ctx) error { return errDebugNotAllowed }
