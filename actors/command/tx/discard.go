package tx

import "github.com/rekv/rekv/actors/command"

// DISCARD: drops the queued commands and ends any WATCH.
type discard struct{}

func parseDiscard([][]byte) (command.Runner, error) { return discard{}, nil }

func (discard) Run(c *command.Ctx) error {
	if err := c.Client.Txn.Discard(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
