package actors

import (
	"errors"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// Group commit.
//
// A shard runs the single-shard commands waiting in its mailbox in one
// driver transaction and commits once when the mailbox is empty (or the
// group is full): one Badger commit, and with durability always one fsync,
// for many commands. Commands still run one after another and each sees
// the writes of those before it (they share one store.Tx), so results are
// the same as one transaction each; replies, watch breaks, notifications
// and blocked-client serving wait for the commit, so nothing uncommitted
// is ever observed outside the shard.
//
// The group is committed before anything that must not see or be seen by
// uncommitted state: a multi-shard command's barrier, a command that is
// not single-shard, a blocking command, EXEC/WATCH, and a push to a key
// with blocked clients (they are served at once, as in Redis). If the
// group fails — a commit error, a transaction grown too big, a storage
// error or a panic inside a command — it is rolled back and every command
// in it runs again alone, each in its own transaction with the usual
// retries, so an error only reaches the command that causes it.
//
// On a shared store only writes are grouped: a read must see every write
// acknowledged before it arrived, also those of other nodes, so it needs a
// snapshot asked for after it arrived (snapshot.go; a write in a group is
// safe: what it read is locked, and a change by another node since the
// group began makes the commit conflict and the group re-run).

// On a shared store the shard also holds the writes that arrive together
// (queue) until its mailbox is empty, then runs them in one group whose
// first round trip reads every key they look up (Tx.Prefetch): a group of
// n writes costs a few round trips, not n more.

// maxGroup bounds the commands in one group.
const maxGroup = 256

// maxGroupBytes bounds the replies a group holds until it commits: big
// reads (GET of a 1 MiB value, pipelined by the thousand) must reach their
// client's output buffer, and its limit, as they are made, not pile up in
// the shard by the hundred megabytes.
const maxGroupBytes = 1 << 20

type group struct {
	tx   *store.Tx
	reqs []*Request
	outs [][]byte
	errs []error // each command's error, already in its reply
	// marks[i] is len(tx.Touched()) once reqs[i] ran: the keys each
	// command wrote, for client-side caching invalidations.
	marks []int
	w     *resp.Writer
	bytes int // the length of outs together
	// t0 is when the group opened, read with its wall and monotonic
	// clocks; each command's time is t0 plus the monotonic time since,
	// one clock read where time.Now takes two (kvm-clock makes each
	// about 40 ns, 5% of GET -P 16's CPU when every command read both).
	t0 time.Time
	// nested are the commands run inside the group's (scripts' calls),
	// counted once the group commits.
	nested []command.CmdStat
	// arena keeps the group's short replies; it outlives recycling.
	arena replyArena
	// ctx is the Ctx its commands run with, one after the other
	// (Call.Ctx).
	ctx command.Ctx
}

// Reply arenas: replies shorter than arenaReply share one of arenaSize.
const (
	arenaSize  = 16 << 10
	arenaReply = 2 << 10
)

// replyArena holds short replies back to back, each handed out as its
// own capped slice: one allocation for many replies instead of one each.
// It is never rewritten, only appended to, and a new one starts when it
// is full (the replies in the old one stay valid until their clients
// wrote them).
type replyArena struct{ buf []byte }

// keep returns what w holds as a slice no one else writes: short replies
// in the arena, others detached from w.
func (a *replyArena) keep(w *resp.Writer) []byte {
	b := w.Bytes()
	if len(b) >= arenaReply {
		return w.Detach()
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, arenaSize)
	}
	from := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[from:len(a.buf):len(a.buf)]
}

// batchable reports whether req may join a group; shared is
// Options.Shared (then reads are never grouped). A big command runs
// alone: its transaction may then write its big values ahead
// (store.Env.PreWrite), and the commands of a group do not wait for it.
func batchable(req *Request, shared bool) bool {
	if len(req.Shards) != 1 || req.NoBlock || req.wait != nil || big(req) {
		return false
	}
	if shared && req.Spec.Flags&command.Write == 0 {
		return false
	}
	if req.Spec.Flags&(command.Blocking|command.Keyspace|command.AllShards|command.Conn|command.Transaction) != 0 {
		return false
	}
	return true
}

// queue holds req, a batchable write on a shared store, with the others
// that arrived together, and runs them all once the mailbox is empty or
// they fill a group.
func (s *shard) queue(req *Request) {
	s.queued = append(s.queued, req)
	s.runQueuedIfDue()
}

// runQueuedIfDue runs the queued writes once they fill a group or the
// mailbox is empty (after a write joined them, or a read left them
// queued).
func (s *shard) runQueuedIfDue() {
	if len(s.queued) >= maxGroup || len(s.queued) > 0 && s.mb.UserMessageCount() <= 0 {
		s.runQueued()
	}
}

// runQueued runs the writes queue holds, in the open group (see add).
func (s *shard) runQueued() {
	q := s.queued
	if len(q) == 0 {
		return
	}
	s.queued = nil
	for i, req := range q {
		if s.groupTooOld() {
			s.commitOpen() // see groupJoinWindow
		}
		if i == 0 || s.group == nil { // a group to join, or one to open
			s.ahead = q[i:]
		}
		s.add(req, i < len(q)-1)
	}
	s.ahead = nil
	clear(q)
	s.queued = q[:0]
}

// prefetch reads ahead the keys of the queued writes still to run in the
// group's database (Tx.Prefetch).
func (s *shard) prefetch(tx *store.Tx, db int) {
	if len(s.ahead) < 2 {
		return // one command reads its key itself, in the first batch
	}
	var keys [][]byte
	for _, req := range s.ahead {
		if req.DB == db {
			keys = req.keys(keys)
		}
	}
	tx.Prefetch(keys)
}

// add runs req in the shard's open group (opening one), or alone when the
// group cannot take it. The group commits once full, or once the mailbox
// is empty unless held (a Session: it commits the group at its End).
func (s *shard) add(req *Request, held bool) {
	e := s.e
	resolve, purge := s.cacheFns()
	if s.group == nil {
		t0 := time.Now()
		tx, err := store.Env{Drv: e.drv, Caches: resolve, Markers: e.markers,
			Notify: e.rt.notifying(), Effects: e.effects(), Spare: &s.spareTx}.Begin(true, req.DB, t0.UnixMilli())
		if err != nil {
			s.settleWrites()
			e.execute(req, s.idx)
			s.notedWrites()
			return
		}
		g := s.spare
		if g == nil {
			g = &group{w: resp.NewWriter(2)}
		}
		s.spare, g.tx, g.t0, s.group = nil, tx, t0, g
	}
	g := s.group
	if s.ahead != nil {
		s.prefetch(g.tx, req.DB)
		s.ahead = nil
	}
	g.reqs = append(g.reqs, req)
	out, cmdErr, ok := e.runGrouped(g, req, purge)
	if !ok {
		s.fallback()
		return
	}
	g.record(out, cmdErr)
	// The count may read -1: protoactor's mailbox pushes a message before
	// counting it, and the shard may pop and run it in between. Only a
	// positive count promises a next message (which then flushes the group).
	if len(g.reqs) >= maxGroup || g.bytes >= maxGroupBytes || !held && s.mb.UserMessageCount() <= 0 || s.feedsWaiters(g) {
		s.flush()
	}
}

// record keeps the reply and error of the command last run in g.
func (g *group) record(out []byte, cmdErr error) {
	g.outs, g.errs = append(g.outs, out), append(g.errs, cmdErr)
	g.bytes += len(out)
	g.marks = append(g.marks, len(g.tx.Journal().Touched()))
}

// runGrouped runs one command in the group's transaction and returns its
// reply and error; false means the group is spoiled and must be re-run
// command by command. purge empties the caches the group uses.
func (e *Engine) runGrouped(g *group, req *Request, purge func()) (out []byte, cmdErr error, ok bool) {
	w := g.w
	w.Reset(req.Proto)
	tx := g.tx
	tx.Use(req.DB)
	var trackRead func()
	if req.Track {
		if !req.Spec.Script() && wroteKeyOf(tx, req) {
			// The group wrote a key this read looks up: its keys are
			// tracked once that write's invalidation went out, at the
			// commit, or the invalidation would take them out of the
			// table (and tell the client of a change it has not read).
			// Redis invalidates a write before the next command reads.
			req.trackLater = true
		} else {
			trackRead = e.startTracking(req.Client, req.Spec, req.Args)
		}
	}
	t0 := g.t0.Add(time.Since(g.t0))
	tx.SetNow(t0.UnixMilli())
	call := e.callOf(req, purge)
	call.Stats, call.TrackRead, call.Ctx = &g.nested, trackRead, &g.ctx
	req.failed = false
	err := e.rt.Step(tx, w, call)
	req.took, req.failed = time.Since(t0), req.failed || err != nil || errorReply(w.Bytes()) // reported at the commit

	if err == nil {
		e.countLookups(tx, req.Spec, req.Args)
		return g.arena.keep(w), nil, true
	}
	var re *rerr.Error
	if !errors.As(err, &re) {
		// Storage trouble, too big, conflict, a panic: not this group's
		// business; its commands re-run alone (but one that panicked).
		req.panicked = errors.Is(err, ErrPanic)
		return nil, nil, false
	}
	w.Reset(req.Proto)
	command.Reply(w, err, req.Spec.FullName(), e.log)
	return g.arena.keep(w), err, true
}

// feedsWaiters reports whether the last command pushed to a list a client
// is blocked on, so the group must commit now and serve it.
func (s *shard) feedsWaiters(g *group) bool {
	if s.e.blocked.n.Load() == 0 {
		return false
	}
	for _, k := range g.tx.Journal().Ready() {
		if s.e.blocked.first(k.DB, k.Key) != nil {
			return true
		}
	}
	return false
}

// flush runs the queued writes, commits the open group and sends its
// replies.
func (s *shard) flush() {
	s.runQueued()
	s.commitOpen()
}

// commitOpen commits the open group, if any, and sends its replies.
func (s *shard) commitOpen() {
	g := s.group
	if g == nil {
		return
	}
	s.settleWrites()
	err := s.e.commit(g.tx)
	s.group = nil
	if err != nil {
		_, purge := s.cacheFns()
		s.e.commitFailed(g, err, purge) // its commands may commit alone, or it may have committed
	} else {
		resolve, _ := s.cacheFns()
		s.e.committed(g, s.e.all[s.idx:s.idx+1:s.idx+1], resolve)
	}
	s.notedWrites()
	s.recycle(g)
}

// committed finishes a group whose transaction committed: notifications,
// client-side caching invalidations, the replies, then the effects on
// watches and blocked clients. held are the shards the group holds, caches
// its cache resolver.
func (e *Engine) committed(g *group, held []int, caches store.CacheResolver) {
	g.tx.Rollback()
	e.expireSeen(g.tx)
	e.noteLazy(g.tx)
	e.publishNotes(g.tx)
	touched, from := g.tx.Journal().Touched(), 0
	for i, req := range g.reqs {
		if req.Spec.Flags&command.Unseen == 0 {
			e.invalidate(req.Client, touched[from:g.marks[i]], false)
		}
		from = g.marks[i]
	}
	for _, req := range g.reqs {
		if req.trackLater {
			e.trackKeys(req.Client, req.Spec, req.Args)
		}
	}
	for i, req := range g.reqs {
		// Reported before the reply: the client's next command may run
		// as soon as it is answered, and its slow-log entry and stats
		// come after this one's, as in Redis.
		e.report(req.Client, req.Spec, req.Args, req.took, req.failed)
		req.reply(g.outs[i], g.errs[i])
	}
	e.countNested(nil, g.nested)
	e.after(effectsOf(g.tx), held, caches)
}

// recycle keeps g, emptied, for the shard's next group: its slices and
// writer are reused (the replies were handed over, the requests are done).
func (s *shard) recycle(g *group) {
	clear(g.reqs)
	clear(g.outs)
	g.nested = g.nested[:0]
	clear(g.errs)
	g.tx.Release(&s.spareTx)
	g.reqs, g.outs, g.errs, g.marks = g.reqs[:0], g.outs[:0], g.errs[:0], g.marks[:0]
	g.tx, g.bytes, g.ctx = nil, 0, command.Ctx{}
	s.spare = g
}

// fallback abandons the open group and runs its commands one by one.
func (s *shard) fallback() {
	g := s.group
	s.group = nil
	_, purge := s.cacheFns()
	s.settleWrites()
	s.e.rerun(g, purge)
	s.notedWrites()
	s.recycle(g)
}

// wroteKeyOf reports whether tx (a group's) wrote a key req names.
func wroteKeyOf(tx *store.Tx, req *Request) bool { return wroteKeyIn(tx, req.DB, req.Spec, req.Args) }

// wroteKeyIn reports whether tx wrote a key of database db that the
// command args names.
func wroteKeyIn(tx *store.Tx, db int, spec *command.Spec, args [][]byte) bool {
	var idx [8]int
	for _, at := range spec.KeyIndexes(args, idx[:0]) {
		if tx.Journal().Wrote(db, args[at]) {
			return true
		}
	}
	return false
}
