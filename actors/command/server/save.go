package server

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// SAVE: writes a consistent backup of the store to the backup file and
// answers once it is written. The connection waits; the event loop and
// the other connections go on (the backup runs on its own goroutine).
type saveCmd struct{}

func parseSave([][]byte) (command.Runner, error) { return saveCmd{}, nil }

func (saveCmd) Run(c *command.Ctx) error {
	reply, proto, srv, log := c.Client.Session.ReplyLater(), c.W.Proto(), c.Server.Node, c.Log
	go func() {
		w := resp.NewWriter(proto)
		defer func() {
			if p := recover(); p != nil { // answered even if the save panicked
				guard.Guard{Log: log}.Report(p, "command panicked", "cmd", "save")
				w.Reset(proto)
				command.Reply(w, guard.ErrPanic, "save", log)
			}
			reply(w.Bytes())
		}()
		if status, err := srv.Save(false, false); err != nil {
			command.Reply(w, err, "save", log)
		} else {
			w.Simple(status)
		}
	}()
	return command.ErrReplyLater
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
	status, err := c.Server.Node.Save(true, b.schedule)
	if err != nil {
		return err
	}
	c.W.Simple(status)
	return nil
}

// BGREWRITEAOF: rekv has no append-only file; the rewrite's purpose —
// giving back the space of overwritten and deleted data — is the store's
// compaction, run in the background with Redis's replies (state.Rewriter).
type bgrewriteaofCmd struct{}

func parseBgrewriteaof([][]byte) (command.Runner, error) { return bgrewriteaofCmd{}, nil }

func (bgrewriteaofCmd) Run(c *command.Ctx) error {
	status, err := c.Server.Node.Rewrite()
	if err != nil {
		return err
	}
	c.W.Simple(status)
	return nil
}
