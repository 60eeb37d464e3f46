package tx

import "github.com/rekv/rekv/actors/command"

// MULTI: later commands are queued until EXEC or DISCARD.
type multi struct{}

func parseMulti([][]byte) (command.Runner, error) { return multi{}, nil }

func (multi) Run(c *command.Ctx) error {
	if err := c.Client.Txn.Multi(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
