package server

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SHUTDOWN [NOSAVE | SAVE] [NOW] [FORCE] [ABORT]: the node stops
// gracefully — it stops accepting, lets the shards finish, closes the
// store — and the process exits. The data is already in the store, so
// SAVE and NOSAVE change nothing, and NOW and FORCE have nothing to skip;
// as in Redis the client gets no reply, only the closed connection.
// ABORT has no shutdown in progress to cancel.
type shutdownCmd struct{}

func parseShutdown(args [][]byte) (command.Runner, error) {
	var save, nosave, abort, other bool
	for _, a := range args[1:] {
		switch strings.ToLower(string(a)) {
		case "save":
			save = true
		case "nosave":
			nosave = true
		case "now", "force":
			other = true
		case "abort":
			abort = true
		default:
			return nil, rerr.ErrSyntax
		}
	}
	if save && nosave || abort && (save || nosave || other) {
		return nil, rerr.ErrSyntax
	}
	if abort {
		return nil, rerr.Errorf("ERR No shutdown in progress.")
	}
	return shutdownCmd{}, nil
}

func (shutdownCmd) Run(c *command.Ctx) error {
	if !c.Server.Node.Shutdown() {
		return rerr.Errorf("ERR Errors trying to SHUTDOWN. Check logs.")
	}
	c.Client.Conn.CloseAfterReply()
	return nil
}

// CONFIG REWRITE
type configRewrite struct{}

func parseConfigRewrite([][]byte) (command.Runner, error) { return configRewrite{}, nil }

func (configRewrite) Run(c *command.Ctx) error {
	if err := c.Server.Config.ConfigRewrite(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// CONFIG RESETSTAT
type configResetStat struct{}

func parseConfigResetStat([][]byte) (command.Runner, error) { return configResetStat{}, nil }

func (configResetStat) Run(c *command.Ctx) error {
	c.Server.Status.ResetStats()
	c.W.OK()
	return nil
}
