package tx

import "github.com/rekv/rekv/actors/command"

// EXEC: runs the queued commands atomically (nil if a WATCHed key changed);
// EXECABORT if a command failed to queue. The engine replies.
type exec struct{}

func parseExec([][]byte) (command.Runner, error) { return exec{}, nil }

func (exec) Run(c *command.Ctx) error { return c.Client.Txn.Exec() }
