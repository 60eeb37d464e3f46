package actors

import (
	"slices"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
)

// Running commands on the event loops.
//
// A command whose shards are idle gives the same result whether its shard
// goroutines run it or the event loop that read it does, as long as the
// loop holds those shards' locks meanwhile and the client has no earlier
// command still running elsewhere (it would be overtaken). Running it on
// the loop saves the two goroutine hand-offs of the trip (event loop to
// shard, shard to the loop's wake-up) and the reply goes out with the
// same loop pass that read the request.

// RunHere runs req on the calling goroutine (an event loop) instead of
// sending it to its shards, when that gives the same result: req is a
// command that could run on its shards without waiting (not blocking, not
// keyspace-wide, not a transaction), nor a script (Serial: a script may
// run for long, and while it does the loop must answer other clients,
// BUSY at least, and SCRIPT KILL), and every shard it holds is idle —
// nothing in its mailbox, no open group, and its lock free (a shard
// that reached a barrier holds it until the barrier's command ran). The locks are only tried, never
// waited for, so holding several at once cannot deadlock: a multi-shard
// command gets its barrier for free. The caller guarantees that none of
// the client's earlier commands is still unanswered, so req overtakes
// nothing of its client's; among clients, running it now is one more
// serial order. It runs, commits and replies exactly as on a shard
// (execute), under the shards' locks. It reports false, having done
// nothing, when req must be dispatched. Nothing runs in place on a shared
// store (TiKV) but, in owned mode (owned.go), a read its shard's cache
// answers whole (readHere): there every other read is a network round trip, which would
// stall the event loop and every client on it (GET held at about 3,700/s
// on the network cluster whatever the client count; on 16 shards it ran
// 7,100/s, on 64 8,800/s), and writes' conflict retries back off. Writes go
// to their shards too while every commit syncs the disk (durability
// always: a shard's group commit shares one sync among many clients).
func (e *Engine) RunHere(req *Request) bool {
	if e.owned && req.done == nil && snapshotRead(req) {
		return e.readHere(req)
	}
	if !e.inPlace(req) {
		return false
	}
	for n, i := range req.Shards {
		if !e.shards[i].idle() {
			e.unlock(req.Shards[:n])
			return false
		}
	}
	defer e.unlock(req.Shards)
	req.onLoop = true
	e.execute(req, req.Shards[0])
	return true
}

// readHere answers req, a snapshotRead in owned mode, on the calling
// event loop from its shard's cache (readCached) when its shard's lock is
// free and the cache holds all it reads; else it does nothing and reports
// false. Messages waiting in the shard's mailbox do not matter: they are
// other clients' (the caller's guarantee, RunHere's, keeps this client's
// order), unanswered, so the read may come first; a write the shard holds
// queued or in a group that may touch its keys sends it to the shard.
func (e *Engine) readHere(req *Request) bool {
	s := e.shards[req.Shards[0]]
	if !s.mu.TryLock() {
		return false
	}
	defer s.mu.Unlock() // it ran nothing that commits: no stamp to renew
	return s.readCached(req)
}

// unlock releases the locks of shards.
func (e *Engine) unlock(shards []int) {
	for _, i := range shards {
		if e.snaps != nil {
			e.shards[i].noteRan() // what ran holding it committed: reads after need a newer stamp
		}
		e.shards[i].mu.Unlock()
	}
}

// inPlace reports whether req may run on an event loop at all (see
// RunHere).
func (e *Engine) inPlace(req *Request) bool {
	return !e.shared && req.done == nil && !req.NoBlock && req.wait == nil && len(req.Shards) > 0 && !big(req) &&
		req.Spec.Flags&(command.Blocking|command.Keyspace|command.AllShards|command.Conn|command.Transaction|command.Serial) == 0 &&
		(req.Spec.Flags&command.Write == 0 || e.syncs == nil || !e.syncs())
}

// inPlaceArgBytes bounds the argument bytes of a command run on an event
// loop: a bigger one goes to its shard, whose goroutine writes it. A
// 256 MiB SET run in place held the loop (and every client on it, PING
// included) for the 14 s Badger took to write it.
const inPlaceArgBytes = 1 << 20

// big reports whether req's arguments pass inPlaceArgBytes: it then runs
// on its shard, alone in its transaction (batchable, Bundles).
func big(req *Request) bool { return req.ArgBytes > inPlaceArgBytes }

// idle takes s's lock if s is idle: nothing queued, no open group. It
// never waits.
func (s *shard) idle() bool {
	if s.mb.UserMessageCount() > 0 || !s.mu.TryLock() {
		return false
	}
	if s.group != nil || s.mb.UserMessageCount() > 0 {
		s.mu.Unlock()
		return false
	}
	return true
}

// Session runs commands in place of their shards, as RunHere does, and
// the single-shard ones of a shard together in one group commit
// (batch.go) held open until End: a pipeline of sixteen SETs costs one
// commit per shard, not sixteen. The net package keeps one per event loop
// and ends it once the loop has handled the events of one wake-up, so the
// commands of all the clients read in that wake-up share the commits. The
// shards it takes stay locked until End, so nothing else runs on them and
// nothing uncommitted is seen; their replies are sent by the commits.
// A Session belongs to one goroutine; the zero Session is ready (and
// holds nothing).
type Session struct {
	e    *Engine
	held []*shard
}

// Session returns an empty session of e.
func (e *Engine) Session() Session { return Session{e: e} }

// Run runs req in the session: into the open group of its shard, taking
// the shard if it is idle. The caller guarantees that every earlier
// command of req's client has been answered or ran in this session since
// its last End. It reports false, having done nothing, when req cannot
// join a group here (then End the session before running req otherwise:
// a command dispatched elsewhere must see the session's writes).
func (ss *Session) Run(req *Request) bool {
	e := ss.e
	if !batchable(req, e.shared) || !e.inPlace(req) {
		return false
	}
	s := e.shards[req.Shards[0]]
	if !slices.Contains(ss.held, s) {
		if !s.idle() {
			return false
		}
		ss.held = append(ss.held, s)
	}
	req.onLoop = true
	s.add(req, true)
	return true
}

// Open reports whether the session holds shards (Run has run a command
// since the last End).
func (ss *Session) Open() bool { return len(ss.held) > 0 }

// End commits the session's groups, which sends their replies, and
// releases its shards; it does nothing when the session holds none.
func (ss *Session) End() {
	for _, s := range ss.held {
		s.flush()
		s.mu.Unlock()
	}
	ss.held = ss.held[:0]
}

// Warm reads ahead what the look-ups of keys, the keys of the commands
// about to run in the session, and of fields, their fields or members
// (nil: none), will read in the meta and member caches of the shards it
// holds (store.Tx.Warm), changing nothing. A key whose shard
// the session does not hold is left alone: its cache may be in use
// elsewhere.
func (ss *Session) Warm(db int, keys, fields [][]byte) {
	var mine, theirs [store.MaxWarm][]byte
	for _, s := range ss.held {
		if s.group == nil {
			continue
		}
		n := 0
		for i, k := range keys[:min(len(keys), store.MaxWarm)] {
			if len(ss.e.shards) == 1 || ss.e.shards[ss.e.ShardOf(k)] == s {
				mine[n], theirs[n] = k, nil
				if i < len(fields) {
					theirs[n] = fields[i]
				}
				n++
			}
		}
		var fs [][]byte // nil: no fields to read ahead
		if fields != nil {
			fs = theirs[:n]
		}
		s.group.tx.Warm(db, mine[:n], fs)
	}
}
