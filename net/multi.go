package net

import (
	"slices"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// The connection's MULTI/WATCH state, driven by the commands of
// actors/command/tx (command.Client). They run on the event loop; WATCH
// and EXEC are dispatched to the engine (actors/transaction.go), which
// replies. cl.cur and cl.curSeq are the command being run.

// Multi implements command.Client.
func (cl *client) Multi() error {
	if cl.multi {
		return rerr.ErrNestedMulti
	}
	cl.multi, cl.multiErr, cl.queue, cl.queueShard = true, false, nil, map[int]bool{}
	return nil
}

// Discard implements command.Client.
func (cl *client) Discard() error {
	if !cl.multi {
		return rerr.ErrDiscardMulti
	}
	cl.endMulti()
	return nil
}

// Unwatch implements command.Client.
func (cl *client) Unwatch() {
	cl.srv.engine.Unwatch(cl.watch)
	cl.watch, cl.watchShard = nil, nil
}

// Watch implements command.Client.
func (cl *client) Watch(keys [][]byte) error {
	if cl.multi {
		return rerr.ErrWatchInMulti
	}
	if cl.watch == nil {
		cl.watch, cl.watchShard = &actors.WatchState{}, map[int]bool{}
	}
	e := cl.srv.engine
	shards := e.Route(cl.cur, cl.curArgs)
	for _, i := range shards {
		cl.watchShard[i] = true
	}
	e.Dispatch(&actors.Request{Seq: cl.curSeq, Client: cl, Spec: cl.cur, DB: cl.DB(), Proto: cl.Proto(),
		Shards: shards, Runner: e.WatchRunner(cl.watch, keys)})
	return command.ErrReplyLater
}

// Exec implements command.Client.
func (cl *client) Exec() error {
	if !cl.multi {
		return rerr.ErrExecNoMulti
	}
	if cl.multiErr {
		cl.endMulti()
		return rerr.ErrExecAbort
	}
	shards := make([]int, 0, len(cl.queueShard)+len(cl.watchShard))
	for _, m := range []map[int]bool{cl.queueShard, cl.watchShard} {
		for i := range m {
			shards = append(shards, i)
		}
	}
	slices.Sort(shards)
	shards = slices.Compact(shards)
	if len(shards) == 0 {
		shards = []int{0} // an empty transaction without WATCH
	}
	e := cl.srv.engine
	cl.srv.recheckQueued(cl)
	for i := range cl.queue {
		cl.queue[i].Track = cl.tracksRead(cl.queue[i].Spec)
		cl.queue[i].NoTouch = cl.noTouch.Load()
	}
	run := e.ExecRunner(cl.watch, cl.queue, cl.roles())
	cl.watch, cl.watchShard = nil, nil // the EXEC ends the WATCH
	cl.endMulti()
	e.Dispatch(&actors.Request{Seq: cl.curSeq, Client: cl, Spec: cl.cur, DB: cl.DB(), Proto: cl.Proto(),
		Shards: shards, Runner: run}) // no Args: EXEC is not slow-logged, as in Redis
	return command.ErrReplyLater
}

// recheckQueued checks every queued command against the user's rules as
// they are at EXEC, as Redis does: a command the rules no longer allow is
// not run, and its place in EXEC's reply is a NOPERM error saying why
// (logged in ACL LOG with the "multi" context); the others run.
func (s *Server) recheckQueued(cl *client) {
	u := s.acl.User(cl.User())
	for i := range cl.queue {
		q := &cl.queue[i]
		if q.Err != nil {
			continue
		}
		d := &acl.Denial{Reason: "command", Object: q.Spec.FullName()}
		if u != nil { // nil: deleted while connected, its connection is closing
			if d = acl.Permit(u, q.Spec, q.Args); d == nil {
				continue
			}
			s.acl.Log(d.Reason, "multi", d.Object, u.Name, cl.Info())
		}
		q.Err = errRulesChanged(d)
	}
}

// errRulesChanged is Redis's EXEC-time denial of a queued command.
func errRulesChanged(d *acl.Denial) error {
	reason := "no permission to execute the command or subcommand"
	switch d.Reason {
	case "key":
		reason = "no permission to touch the specified keys"
	case "channel":
		reason = "no permission to access one of the channels used as arguments"
	}
	return rerr.Errorf("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "+
		"This command is no longer allowed for the following reason: %s", reason)
}

// endMulti leaves MULTI state and ends any WATCH (DISCARD, EXECABORT).
func (cl *client) endMulti() {
	cl.multi, cl.multiErr, cl.queue, cl.queueShard = false, false, nil, nil
	cl.Unwatch()
}
