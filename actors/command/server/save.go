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
	srv := c.Server.Node
	go answerLater(c, "save", func(w *resp.Writer) error {
		status, err := srv.Save(false, false)
		if err == nil {
			w.Simple(status)
		}
		return err
	})()
	return command.ErrReplyLater
}

// answerLater returns the work of a command that answers later (it
// returns command.ErrReplyLater; its connection waits): run it on a
// goroutine of its own, where work writes the reply or returns the
// error to answer, and a panic in it is answered as an internal error.
// It takes the reply's destination from c now, on the event loop.
func answerLater(c *command.Ctx, cmd string, work func(w *resp.Writer) error) (run func()) {
	reply, proto, log := c.Client.Session.ReplyLater(), c.W.Proto(), c.Log
	return func() {
		w := resp.NewWriter(proto)
		defer func() {
			if p := recover(); p != nil { // answered even if the work panicked
				guard.Guard{Log: log}.Report(p, "command panicked", "cmd", cmd)
				w.Reset(proto)
				command.Reply(w, guard.ErrPanic, cmd, log)
			}
			reply(w.Bytes())
		}()
		if err := work(w); err != nil {
			w.Reset(proto)
			command.Reply(w, err, cmd, log)
		}
	}
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
