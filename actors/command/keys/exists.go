package keys

import "github.com/rekv/rekv/actors/command"

// EXISTS key [key ...]: a key named twice counts twice.
type exists struct{ keys [][]byte }

func parseExists(args [][]byte) (command.Runner, error) { return exists{args[1:]}, nil }

func (e exists) Run(c *command.Ctx) error { return countTrue(c, e.keys, c.Tx.Exists) }
