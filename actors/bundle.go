package actors

import (
	"errors"
	"slices"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// Bundles: the group commit of multi-shard commands.
//
// A client pipelining multi-shard commands (sixteen MSETs of ten keys)
// would otherwise pay, for each, a barrier across its shards and a commit.
// Consecutive multi-shard commands of one client, with nothing of that
// client's between them, can go as one bundle: one barrier over the union
// of their shards, and one transaction in which they run one after
// another, each seeing the writes of those before it, as they would back
// to back. Replies, notifications, invalidations and WATCH breaks come
// after the commit, as for a shard's group. If the bundle fails (a commit
// error, a storage error, a panic, too big) it is rolled back and its
// commands run again alone, each in its own transaction. While any client
// is blocked (BLPOP...) a bundle's commands run alone: a push must serve
// its waiters before the next command runs, as in Redis.

// Bundles reports whether req may go in a bundle (DispatchBundle): a
// multi-shard command that runs at once (not blocking, not keyspace-wide,
// not a transaction or a script, not big), on a store of this node's own (on a
// shared store a bundle's conflicts would re-run every command in it).
func (e *Engine) Bundles(req *Request) bool {
	return len(req.Shards) > 1 && !e.shared && req.done == nil && !req.NoBlock && req.wait == nil && !big(req) &&
		req.Spec.Flags&(command.Blocking|command.Keyspace|command.AllShards|command.Conn|command.Transaction|command.Serial) == 0
}

// DispatchBundle sends reqs, consecutive commands of one client for which
// Bundles holds (the caller bounds how many), to their shards as one
// bundle, without waiting; one command is dispatched as usual.
func (e *Engine) DispatchBundle(reqs []*Request) {
	if len(reqs) == 1 {
		e.Dispatch(reqs[0])
		return
	}
	var shards []int
	for _, r := range reqs {
		shards = append(shards, r.Shards...)
	}
	slices.Sort(shards)
	if e.join(reqs) {
		return
	}
	b := &barrier{req: reqs[0], bundle: reqs, shards: slices.Compact(shards), joinable: true}
	e.send(b)
}

// maxJoined bounds the commands of a barrier that others joined.
const maxJoined = 128

// join appends reqs (consecutive commands of one client for which Bundles
// holds) to the barrier sent last, when that one has not started, holds
// every shard of reqs, and the client had nothing unanswered before them
// (reqs[0].Answered): many clients' MSETs then share one barrier and one
// commit, where each would take every shard in turn. They run right after
// the barrier's own commands, at its place in every mailbox: before the
// commands queued behind it, which came from other clients (a client with
// something unanswered does not join) and have not run, so running reqs
// first is one more serial order. It reports whether reqs joined.
func (e *Engine) join(reqs []*Request) bool {
	if !reqs[0].Answered {
		return false
	}
	e.multiMu.Lock()
	defer e.multiMu.Unlock()
	b := e.open
	if b == nil || b.started || len(b.bundle)+len(reqs) > maxJoined {
		return false
	}
	for _, r := range reqs {
		for _, i := range r.Shards {
			if _, ok := slices.BinarySearch(b.shards, i); !ok {
				return false
			}
		}
	}
	if b.bundle == nil {
		b.bundle = []*Request{b.req}
	}
	b.bundle = append(b.bundle, reqs...)
	return true
}

// start closes b to joiners before it runs.
func (e *Engine) start(b *barrier) {
	e.multiMu.Lock()
	b.started = true
	if e.open == b {
		e.open = nil
	}
	e.multiMu.Unlock()
}

// runBundle runs the commands of b in one transaction (or several, when
// their replies pass maxGroupBytes); the caller holds every shard of b.
func (e *Engine) runBundle(b *barrier) {
	for reqs := b.bundle; len(reqs) > 0; {
		reqs = e.runBundled(b, reqs)
	}
}

// runBundled runs reqs in one transaction until their replies pass
// maxGroupBytes, and returns the commands left.
func (e *Engine) runBundled(b *barrier, reqs []*Request) (left []*Request) {
	if e.blocked.n.Load() > 0 {
		e.runAlone(reqs)
		return nil
	}
	caches, purge := e.cachesOf(b.shards)
	tx, err := store.Env{Drv: e.drv, Caches: caches, Markers: e.markers, Notify: e.rt.notifying(), Effects: e.effects()}.
		Begin(true, b.req.DB, time.Now().UnixMilli())
	if err != nil {
		e.runAlone(reqs)
		return nil
	}
	g := &group{tx: tx, w: resp.NewWriter(2)}
	for i, req := range reqs {
		g.reqs = append(g.reqs, req)
		out, cmdErr, ok := e.runGrouped(g, req, purge)
		if !ok {
			e.rerun(g, purge)
			return reqs[i+1:]
		}
		g.record(out, cmdErr)
		if g.bytes >= maxGroupBytes {
			left = reqs[i+1:]
			break
		}
	}
	if err := e.commit(tx); err != nil {
		e.commitFailed(g, err, purge)
		return left
	}
	e.committed(g, b.shards, caches)
	return left
}

// rerun abandons a failed group: its transaction is rolled back, the
// caches it used are purged (a failed command or commit may have left
// entries behind) and its commands run again alone.
func (e *Engine) rerun(g *group, purge func()) {
	g.tx.Rollback()
	purge()
	e.runAlone(g.reqs)
}

// commitFailed handles a group whose commit failed: its commands run again
// alone, unless the store cannot tell whether the commit was applied
// (drivers.ErrUndetermined): running them again could apply them twice,
// so each gets the error instead.
func (e *Engine) commitFailed(g *group, err error, purge func()) {
	if !errors.Is(err, store.ErrUndetermined) {
		e.rerun(g, purge)
		return
	}
	g.tx.Rollback()
	purge()
	if e.hooks.StorageError != nil {
		e.hooks.StorageError(err)
	}
	for _, req := range g.reqs {
		e.replyError(req, err)
	}
}

// runAlone runs reqs one by one, each in its own transaction; the caller
// holds their shards.
func (e *Engine) runAlone(reqs []*Request) {
	for _, req := range reqs {
		if req.panicked {
			e.replyError(req, ErrPanic) // logged when it panicked
			continue
		}
		e.execute(req, req.Shards[0])
	}
}
