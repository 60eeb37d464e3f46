package tx

import "github.com/rekv/rekv/actors/command"

// WATCH key [key ...]: EXEC fails if any of them changes first. It runs on
// the keys' shards, after every earlier write to them; the engine replies.
type watch struct{ keys [][]byte }

func parseWatch(args [][]byte) (command.Runner, error) { return watch{args[1:]}, nil }

func (x watch) Run(c *command.Ctx) error { return c.Client.Txn.Watch(x.keys) }
