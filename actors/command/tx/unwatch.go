package tx

import "github.com/rekv/rekv/actors/command"

// UNWATCH: forgets every WATCHed key.
type unwatch struct{}

func parseUnwatch([][]byte) (command.Runner, error) { return unwatch{}, nil }

func (unwatch) Run(c *command.Ctx) error {
	c.Client.Txn.Unwatch()
	c.W.OK()
	return nil
}
