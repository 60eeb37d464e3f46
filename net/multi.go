package net

import (
	"slices"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/net/resp"
)

// Commands returns the commands the connection runs itself: Pub/Sub, and
// MULTI, EXEC, DISCARD, WATCH and UNWATCH (see transaction).
func Commands() []*command.Spec {
	tx := command.Transaction | command.Fast
	none := func([][]byte) (command.Runner, error) { return nil, nil }
	return append(pubsubCommands(), []*command.Spec{
		{Name: "multi", Arity: 1, Flags: tx, Parse: none},
		{Name: "exec", Arity: 1, Flags: tx | command.Write, Parse: none},
		{Name: "discard", Arity: 1, Flags: tx, Parse: none},
		{Name: "watch", Arity: -2, Flags: tx, Keys: command.KeySpec{First: 1, Last: -1, Step: 1}, Parse: none},
		{Name: "unwatch", Arity: 1, Flags: tx, Parse: none},
	}...)
}

var (
	errNestedMulti  = rerr.Errorf("ERR MULTI calls can not be nested")
	errExecNoMulti  = rerr.Errorf("ERR EXEC without MULTI")
	errDiscardMulti = rerr.Errorf("ERR DISCARD without MULTI")
	errWatchInMulti = rerr.Errorf("ERR WATCH inside MULTI is not allowed")
	errExecAbort    = rerr.Errorf("EXECABORT Transaction discarded because of previous errors.")
)

// transaction runs MULTI, EXEC, DISCARD, WATCH or UNWATCH on the event
// loop. EXEC and WATCH go to the actors (see actors/transaction.go).
func (s *Server) transaction(cl *client, seq uint64, spec *command.Spec, args [][]byte, db, proto int) {
	reply := func(err error) {
		w := resp.NewWriter(proto)
		if err != nil {
			command.Reply(w, err, spec.Name, s.log)
		} else {
			w.OK()
		}
		cl.Reply(seq, w.Bytes())
	}
	switch spec.Name {
	case "multi":
		if cl.multi {
			reply(errNestedMulti)
			return
		}
		cl.multi, cl.multiErr, cl.queue, cl.queueShard = true, false, nil, map[int]bool{}
		reply(nil)
	case "discard":
		if !cl.multi {
			reply(errDiscardMulti)
			return
		}
		s.endMulti(cl)
		reply(nil)
	case "unwatch":
		s.unwatch(cl)
		reply(nil)
	case "watch":
		if cl.multi {
			reply(errWatchInMulti)
			return
		}
		if cl.watch == nil {
			cl.watch, cl.watchShard = &actors.WatchState{}, map[int]bool{}
		}
		shards := s.engine.Route(spec, args)
		for _, i := range shards {
			cl.watchShard[i] = true
		}
		s.engine.Dispatch(&actors.Request{Seq: seq, Client: cl, Spec: spec, DB: db, Proto: proto, Shards: shards,
			Runner: s.engine.WatchRunner(cl.watch, args[1:])})
	case "exec":
		if !cl.multi {
			reply(errExecNoMulti)
			return
		}
		if cl.multiErr {
			s.endMulti(cl)
			reply(errExecAbort)
			return
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
		run := s.engine.ExecRunner(cl.watch, cl.queue, cl)
		cl.watch, cl.watchShard = nil, nil // the EXEC ends the WATCH
		s.endMulti(cl)
		s.engine.Dispatch(&actors.Request{Seq: seq, Client: cl, Spec: spec, DB: db, Proto: proto, Shards: shards,
			Runner: run})
	}
}

// endMulti leaves MULTI state and ends any WATCH (DISCARD, EXECABORT).
func (s *Server) endMulti(cl *client) {
	cl.multi, cl.multiErr, cl.queue, cl.queueShard = false, false, nil, nil
	s.unwatch(cl)
}

func (s *Server) unwatch(cl *client) {
	s.engine.Unwatch(cl.watch)
	cl.watch, cl.watchShard = nil, nil
}
