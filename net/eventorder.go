package net

import (
	"slices"

	"github.com/rekv/rekv/actors/command"
)

// orderEvents keeps a client's keyspace events in its commands' order.
// Each shard publishes the events of its commands as it commits them, and
// shards commit in parallel, so the events of one client's pipeline over
// several shards would leave grouped by shard; Redis publishes them in
// command order. While events are on, a write bound for other shards than
// the client's previous write waits, unparsed in the input buffer, until
// that write has replied: its events are out by then, and every write
// before it went to the same shards (each change of shards waited), which
// run their commands in order.
//
// It reports whether args (parsed, not yet consumed) must wait; the reply
// awaited then wakes the loop through waitSeq, as for a blocking command.
// A command with a big argument is consumed as it is assembled: one that
// must wait is kept in evHeld, dispatched first when the loop wakes.
// With events off it costs one load per command.
func (s *Server) orderEvents(cl *client, args [][]byte) bool {
	if !s.engine.Notifying() {
		cl.evLast = 0
		return false
	}
	if len(args) == 0 {
		return false
	}
	spec, _ := s.reg.Resolve(args)
	if spec == nil || !spec.Writes() {
		return false
	}
	if spec.Flags&command.RunsQueued == 0 && (cl.multi || spec.Flags&command.Conn != 0) {
		// Queued (EXEC runs it) or a connection command. EXEC itself
		// goes on: it has no keys, so it routes to every shard and waits
		// for the write before it, and it is Serial, so what follows
		// waits for it.
		return false
	}
	shards := s.engine.Route(spec, args)
	if cl.evLast != 0 && !slices.Equal(shards, cl.evShards) && !cl.replied(cl.evLast-1) {
		cl.waitSeq.Store(cl.evLast)
		// The reply may have arrived before waitSeq was set, with nothing
		// to wake the loop: look again.
		if !cl.replied(cl.evLast - 1) {
			return true
		}
		cl.waitSeq.Store(0)
	}
	cl.evLast = cl.nextSeq + 1 // dispatch gives this command nextSeq
	cl.evShards = append(cl.evShards[:0], shards...)
	return false
}

// replied reports whether the reply to seq has been delivered (written,
// or ready behind an earlier one).
func (cl *client) replied(seq uint64) bool {
	cl.outMu.Lock()
	defer cl.outMu.Unlock()
	if seq < cl.written {
		return true
	}
	i := int(seq-cl.written) + cl.phead
	return i < len(cl.pending) && cl.pending[i] != nil
}
