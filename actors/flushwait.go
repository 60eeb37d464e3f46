package actors

import (
	"time"

	"github.com/rekv/rekv/guard"
)

// Flushes on a shared store, and the writes of other nodes' groups.
//
// A write group reads at one snapshot, taken when it begins, and the
// commands that arrive while it reads join it (batch.go). Every key they
// read is locked, so another node's write of one makes the group's commit
// conflict; but a FLUSHDB, FLUSHALL or SWAPDB writes only its database's
// record, which a group reads without locking it (every write on every
// node would otherwise contend for that one record). A command that joined
// a group begun before another node's flush committed would then act on
// the keys as they were before it: an INCR would count on from the old
// value, and a SET of a key the flush hid would write under a version the
// flush marker hides, acknowledged and lost.
//
// So on a shared store two waits keep a flush and the groups apart:
//   - a group takes no command more than groupJoinWindow after it opened
//     (it commits, and the command opens the next group, which begins
//     later);
//   - a command that flushed or swapped a database answers only
//     flushSettle after its commit, longer than the window.
//
// A command sent after the flush's reply (by its client, or by anyone it
// told) then arrives more than flushSettle after the flush committed,
// hence more than groupJoinWindow after any group begun before that
// commit opened: it joins a group begun after the flush, whose snapshot
// holds it. Both are measured with each node's monotonic clock; only
// their difference matters, not agreement between nodes.
const (
	groupJoinWindow = 20 * time.Millisecond
	flushSettle     = 2 * groupJoinWindow
)

// groupTooOld reports whether the open group may take no more commands
// (shared store: see groupJoinWindow).
func (s *shard) groupTooOld() bool {
	return s.e.shared && s.group != nil && time.Since(s.group.t0) > groupJoinWindow
}

// replyAfterFlush sends req's reply, flushSettle after its commit when it
// flushed or swapped a database of a shared store.
func (e *Engine) replyAfterFlush(req *Request, out []byte, err error, fx effects) {
	if !e.shared || len(fx.flushed) == 0 && len(fx.swapped) == 0 {
		req.reply(out, err)
		return
	}
	time.AfterFunc(flushSettle, guard.Guard{Log: e.log, Count: e.rt.Panics}.Func("reply after a flush", func() { req.reply(out, err) }))
}
