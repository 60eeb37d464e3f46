package net

import (
	"errors"
	"strings"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/resp"
	"github.com/rekv/rekv/state"
)

// Running one command: dispatch (the admission guards, MULTI's queue,
// then the connection command here or the storage command to the engine).

// dispatch runs one command whose arguments it owns; more says that more
// commands follow it in the read being run.
func (s *Server) dispatch(cl *client, args [][]byte, more bool) {
	seq := cl.nextSeq
	cl.nextSeq++
	cl.assigned.Store(cl.nextSeq)
	defer s.recoverCommand(cl, seq, args)

	size := argsSize(args)
	if size >= bigTransient {
		cl.releaseAfter(seq)
	}
	cl.inFlight(seq, size)
	s.totalCmds.Add(1)
	spec, resolveErr := s.reg.Resolve(args)
	// quiet: CLIENT REPLY OFF or SKIP silences this command's reply, but
	// for pushes (SUBSCRIBE's confirmations), which Redis always sends,
	// and CLIENT REPLY's own, which it decides (both silenced if refused:
	// fail).
	quiet := cl.replyOff || cl.skipNext
	if quiet && (spec == nil || spec.Flags&command.SetsReplyMode == 0) {
		cl.skipNext = false
		if spec == nil || spec.Flags&command.Pushes == 0 {
			cl.silence(seq)
		}
	}
	db, proto := cl.DB(), cl.Proto()
	if cl.readAt != cl.seenAt || spec != nil && spec != cl.lastSpec {
		cl.mu.Lock()
		cl.lastSeen = cl.readAt
		if spec != nil {
			cl.lastCmd = spec.FullName()
		}
		cl.mu.Unlock()
		cl.seenAt = cl.readAt
		if spec != nil {
			cl.lastSpec = spec
		}
	}
	fail := func(err error, name string) {
		if quiet {
			cl.silence(seq) // an error is no push
		}
		w := resp.NewWriter(proto)
		command.Reply(w, err, name, s.log)
		if spec != nil && spec.Flags&command.RunsQueued != 0 && !errors.As(err, new(redirection)) {
			// As Redis's rejectCommand: a refused EXEC discards the
			// transaction (and its WATCH) and says why.
			msg := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(string(w.Bytes()), "-"), "\r\n"), "ERR ")
			w.Reset(proto)
			w.Error("EXECABORT Transaction discarded because of: " + msg)
			cl.endMulti()
		}
		cl.Reply(seq, w.Bytes())
		cl.multiErr = cl.multi // a command that cannot be queued aborts EXEC
	}
	if resolveErr != nil {
		if named := s.reg.Named(args); named != nil { // a wrong arity: counted, as Redis's rejectCommand
			s.stats.cmds.Of(named).Rejected.Add(1)
		}
		fail(resolveErr, "")
		return
	}
	if cl.tracking.Load() {
		defer cl.endCaching(spec)
	}
	adm := admission{cl: cl, spec: spec, args: args, proto: proto, db: db}
	if err := s.admit(&adm); err != nil {
		s.stats.cmds.Of(spec).Rejected.Add(1)
		fail(err, spec.FullName())
		return
	}
	runner, err := spec.Parse(args)
	if cl.multi && spec.Flags&(command.NotQueued|command.Transaction) == 0 {
		// Queued; a parse error is replied by EXEC, like Redis's runtime
		// syntax errors.
		cl.queue = append(cl.queue, actors.Queued{Spec: spec, Runner: runner, Err: err, Args: args})
		for _, i := range s.engine.Route(spec, args) {
			cl.queueShard[i] = true
		}
		cl.Reply(seq, []byte("+QUEUED\r\n"))
		return
	}
	if s.Monitoring() && spec.Flags&command.Conn == 0 && !state.Unmonitored(spec) {
		s.Monitor(db, cl.addr, args)
	}
	if err != nil {
		s.commandDone(spec, 0, true) // it ran and failed, as far as Redis's stats go
		s.slowCommand(cl, args, 0)
		fail(err, spec.FullName())
		return
	}
	if spec.Flags&command.Conn == 0 && spec.Flags&command.AllowBusy != 0 && s.opts.Busy != nil {
		// An allow-busy storage command (FUNCTION STATS) is answered
		// here, without a transaction, while a function runs: the
		// function's shard would hold it until the function ends. A
		// busy EVAL refuses it, as Redis does.
		d, function := s.opts.Busy()
		if busy := s.busyAfter(d, function); d > 0 && !function && busy != nil {
			fail(busy, spec.FullName())
			return
		}
		if d > 0 && function {
			s.runConn(cl, spec, args, runner, seq, db, proto)
			return
		}
	}
	if spec.Flags&command.Conn != 0 {
		s.runConn(cl, spec, args, runner, seq, db, proto)
		return
	}
	long := false // it may wait long for its reply
	if b, ok := runner.(command.Blocker); ok && b.MayBlock() || spec.Flags&command.Serial != 0 {
		// Like Redis, read nothing more from a client until its blocking
		// command replies; Reply then wakes the loop for what is buffered.
		cl.waitSeq.Store(seq + 1)
		long = true
	}
	// A Request kept keeps its whole block, and the block what its other
	// Requests hold: one that may wait long, or holds a big argument, is
	// allocated alone (a BLPOP blocked after a big SET would keep the
	// SET's value).
	req := cl.reqs.next(more, long || size >= bigTransient)
	*req = actors.Request{Seq: seq, Client: cl, Spec: spec, Runner: runner,
		DB: db, Proto: proto, Shards: s.engine.Route(spec, args), Args: args, ArgBytes: size, Track: cl.tracksRead(spec),
		NoTouch: cl.noTouch.Load(), User: adm.user, ClientInfo: cl.info, Answered: cl.answered(seq)}
	s.toEngine(cl, req)
}

// runConn runs a connection command (command.Conn) on the event loop.
func (s *Server) runConn(cl *client, spec *command.Spec, args [][]byte, runner command.Runner, seq uint64, db, proto int) {
	// It may read what the pass wrote (EXEC, WATCH), and it may wait
	// for shards, which the pass holds.
	s.sendBundle(cl)
	cl.pass.end(cl)
	w := resp.NewWriter(proto)
	cl.cur, cl.curArgs, cl.curSeq = spec, args, seq
	if spec.Flags&command.Serial != 0 {
		// EXEC may re-run on every shard (scripts): read nothing more
		// until it replies; the reply (now or from the engine) clears it.
		cl.waitSeq.Store(seq + 1)
	}
	if s.Monitoring() && !state.Unmonitored(spec) {
		s.monitorConn(cl, spec, args)
	}
	err := s.engine.RunConn(w, actors.Call{Spec: spec, Args: args, Runner: runner, Client: cl.roles(), DB: db}, cl)
	cl.cur, cl.curArgs = nil, nil
	if errors.Is(err, command.ErrReplyLater) {
		return // the engine replies (WATCH, EXEC)
	}
	if err != nil {
		w.Reset(proto)
		command.Reply(w, err, spec.FullName(), s.log)
	}
	cl.Reply(seq, w.Bytes())
	if cl.quitting {
		cl.closeAfter(seq)
	}
}

// toEngine hands a storage command to the engine.
func (s *Server) toEngine(cl *client, req *actors.Request) {
	seq := req.Seq
	// In place of idle shards (see actors.Session): into the session's
	// groups while every earlier command of the client is answered or in
	// them, else alone; the replies go out at the end of OnTraffic.
	bundles := s.engine.Bundles(req)
	if len(cl.bundle) > 0 {
		if bundles && len(cl.bundle) < maxBundle {
			cl.bundle = append(cl.bundle, req)
			return
		}
		s.sendBundle(cl)
	}
	if !cl.toShards {
		if cl.pass.run(cl, req) {
			return
		}
		if cl.inPass {
			cl.pass.end(cl)
		}
	}
	if !cl.toShards && cl.answered(seq) && cl.pass.inPlace(req) && s.engine.RunHere(req) {
		return
	}
	if bundles {
		cl.bundle = append(cl.bundle, req)
		return
	}
	s.engine.Dispatch(req)
}

// maxBundle bounds the commands of one bundle.
const maxBundle = 64

// sendBundle dispatches the client's bundle of multi-shard commands.
func (s *Server) sendBundle(cl *client) {
	if len(cl.bundle) == 0 {
		return
	}
	s.engine.DispatchBundle(cl.bundle)
	cl.bundle = nil
}

// argsSize returns the bytes of a command's arguments, stopping early once
// it passes bigTransient.
func argsSize(args [][]byte) int {
	n := 0
	for _, a := range args {
		if n += len(a); n >= bigTransient {
			break
		}
	}
	return n
}

// monitorConn shows a connection command to the monitors: EXEC after the
// commands it runs, SELECT with the database it selects.
func (s *Server) monitorConn(cl *client, spec *command.Spec, args [][]byte) {
	db := cl.DB()
	switch {
	case spec.Flags&command.RunsQueued != 0:
		if cl.multi && !cl.multiErr {
			for _, q := range cl.queue {
				s.Monitor(db, cl.addr, q.Args)
			}
		}
	case spec.Flags&command.SelectsDB != 0:
		if n, ok := resp.ParseInt(args[1]); ok && n >= 0 && n < 16 {
			db = int(n)
		}
	}
	s.Monitor(db, cl.addr, args)
}
