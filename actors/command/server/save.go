package server

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SAVE: writes a consistent backup of the store to the backup file and
// answers once it is written (the connection waits; others go on).
type saveCmd struct{}

func parseSave([][]byte) (command.Runner, error) { return saveCmd{}, nil }

func (saveCmd) Run(c *command.Ctx) error {
	status, err := c.Server.Save(false, false)
	if err != nil {
		return err
	}
	c.W.Simple(status)
	return nil
}

// BGSAVE [SCHEDULE]: the same backup in the background.
type bgsaveCmd struct{ schedule bool }

func parseBgsave(args [][]byte) (command.Runner, error) {
	switch {
	case len(args) == 1:
		return bgsaveCmd{}, nil
	case len(args) == 2 && strings.EqualFold(string(args[1]), "schedule"):
		return bgsaveCmd{schedule: true}, nil
	}
	return nil, rerr.ErrSyntax
}

func (b bgsaveCmd) Run(c *command.Ctx) error {
	status, err := c.Server.Save(true, b.schedule)
	if err != nil {
		return err
	}
	c.W.Simple(status)
	return nil
}
