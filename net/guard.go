package net

import (
	"github.com/panjf2000/gnet/v2"

	"github.com/rekv/rekv/guard"
)

// Panics are contained where client-driven code runs on the network side
// (package guard): a command dispatched on the event loop answers
// "-ERR internal error" (dispatch), anything else on a connection's
// event-loop path closes that connection (OnTraffic, OnOpen, OnClose),
// and timers and callbacks (deferred replies, wake-ups) report and end.

// guard returns the server's panic reporter.
func (s *Server) guard() guard.Guard { return guard.Guard{Log: s.log, Count: s.panics} }

// internalError is the reply of a command that panicked.
var internalError = []byte("-ERR internal error\r\n")

// recoverCommand, deferred by dispatch, answers the command of seq with
// an internal error if it panicked; a reply it already has is kept
// (Reply drops a second one).
func (s *Server) recoverCommand(cl *client, seq uint64, args [][]byte) {
	if p := recover(); p != nil {
		name := ""
		if len(args) > 0 {
			name = truncate(args[0], 64)
		}
		s.guard().Report(p, "command panicked", "cmd", name, "id", cl.id, "addr", cl.addr)
		cl.cur, cl.curArgs = nil, nil
		cl.Reply(seq, internalError)
	}
}

// recoverConn, deferred by the event handlers, closes a connection whose
// event-loop path panicked outside a command: what it was answering is
// unknown.
func (s *Server) recoverConn(cl *client, action *gnet.Action) {
	if p := recover(); p != nil {
		var id int64
		addr := ""
		if cl != nil {
			id, addr = cl.id, cl.addr
			cl.markClosed()
		}
		s.guard().Report(p, "panic on a connection: closing it", "id", id, "addr", addr)
		*action = gnet.Close
	}
}
