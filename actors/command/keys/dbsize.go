package keys

import (
	"github.com/rekv/rekv/actors/command"
)

// DBSIZE counts the keys of the selected db by walking its meta keys:
// as Redis's, those expired but not yet deleted count until the GC or a
// command that finds them expired deletes them (lazy expiry).
type dbSize struct{}

func parseDBSize([][]byte) (command.Runner, error) { return dbSize{}, nil }

func (dbSize) Run(c *command.Ctx) error {
	n, err := c.Tx.CountStored()
	if err != nil {
		return err
	}
	c.W.Int(n)
	return nil
}
