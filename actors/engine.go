package actors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cespare/xxhash/v2"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// Options configure the engine.
type Options struct {
	// Panics, when set, counts the commands' panics the engine recovered.
	Panics        *guard.Counter
	Shards        int // number of shard actors
	MetaCacheSize int // meta cache entries in all, split across shards
	// MemberCacheSize: member cache entries in all, split across shards
	// (store.MetaCache.EnableMembers); none without the meta cache.
	MemberCacheSize int
	// ListCacheBytes: list window memory in all, split across shards
	// (store.MetaCache.EnableLists); none without the meta cache.
	ListCacheBytes int
	ScanCursors    int // SCAN cursors remembered
	// LFU, when set, is the LFU policy the shards' access clocks follow
	// (OBJECT FREQ); nil: access times only.
	LFU *store.LFU
	// Shared means other nodes write the same store (TiKV): no meta cache
	// (another node may change what it remembers), flush markers re-read
	// per transaction, and conflicts retried with a growing, jittered
	// back-off, since they are then expected under contention.
	Shared bool
	// Hooks are the engine's calls into the rest of the node.
	Hooks Hooks
	// Owned (cluster mode, with Serves; it only matters on a shared store,
	// whose caches are otherwise off) makes the meta caches authoritative for the keys of the slots this node serves, as
	// on an unshared store: no other node writes them (they are fenced
	// and handed over: package cluster/membership), so reads found whole
	// in the cache are answered without the store (owned.go).
	Owned bool
}

// Hooks are what the engine tells the rest of the node and asks of it,
// each nil when nothing listens: one struct, not a field per callback.
type Hooks struct {
	// Slow, when set, receives every client command's execution time and
	// whether it failed (SLOWLOG and INFO commandstats).
	Slow func(client Replier, spec *command.Spec, args [][]byte, d time.Duration, failed bool)
	// Track, when set, receives the keys of every command dispatched with
	// Request.Track (or queued with Queued.Track), on the shard that runs
	// it, just before it runs; Invalidate receives the keys each committed
	// command wrote, with the client that sent it (flushed: it emptied a
	// database). Both are called in the shards' serial order, so a key
	// tracked by a read is invalidated by every write that runs after
	// it: client-side caching (CLIENT TRACKING).
	Track      func(client Replier, keys [][]byte)
	Invalidate func(by Replier, keys []store.KeyRef, flushed bool)
	// Ready, when set, receives the keys each committed command pushed
	// to (lists, sorted sets, streams: what blocked clients wait for), so
	// other nodes on the store can serve their blocked clients at once
	// (Engine.Poke on theirs) instead of at their next poll.
	Ready func(keys []store.KeyRef)
	// StorageError, when set, hears of every command that failed on
	// something other than a Redis error or a conflict: a storage fault,
	// or a panic (the node then checks the store).
	StorageError func(err error)
	// Serves, when set (cluster mode), is asked before each commit whether
	// this node still serves the keys written: a refusal (MOVED, TRYAGAIN,
	// CLUSTERDOWN as a *rerr.Error) fails the commit with it. It is asked
	// under the commit barrier (Quiesce), so once a new slot map is
	// published and a Quiesce returned, no write the map refuses commits.
	Serves func(keys []store.KeyRef) error
	// Expired, when set, deletes the keys a command found expired but
	// still stored (Redis's lazy expiry): it queues their deletion on
	// their shards before the command's reply goes, so the client's next
	// command finds them gone, and does not wait for it.
	Expired func(refs []store.ExpiredRef)
	// Leased, when set (cluster mode), reports whether the node's lease
	// still holds by its own clock: reads from the caches need it (writes
	// are fenced by the store's clock: drivers.Fencer).
	Leased func() bool
}

// Replier receives a command's reply bytes, which it then owns.
type Replier interface {
	Reply(seq uint64, b []byte)
}

// ReplyExpecter is implemented by Repliers that bound what a client's
// unread replies may take (net): ExpectReply says a reply of about n
// bytes is coming for a command sent on to its shard
// (command.NotOnLoop).
type ReplyExpecter interface {
	ExpectReply(n int64)
}

// Request is one parsed command on its way to an actor.
type Request struct {
	Seq    uint64
	Client Replier
	Spec   *command.Spec
	Runner command.Runner
	DB     int
	Proto  int
	Shards []int // ascending shard indexes the command holds
	// NoBlock makes a blocking command reply as if it timed out instead
	// of waiting (inside MULTI/EXEC).
	NoBlock bool
	// Args is the command line, for SLOWLOG (nil: not a client's).
	Args [][]byte
	// ArgBytes is the bytes of Args as the event loop counted them when
	// it read the command (at least bigTransient past it: net's
	// argsSize), which RunHere weighs (inPlaceArgBytes).
	ArgBytes int
	// Track: the client tracks the keys it reads (Options.Track).
	Track bool
	// NoTouch: the client's reads do not count as accesses (CLIENT
	// NO-TOUCH ON).
	NoTouch bool
	// Answered: every earlier command of the client had been answered
	// when this one was dispatched, so it may join another client's
	// pending bundle (Engine.join) without overtaking anything of its own.
	Answered bool
	// User and ClientInfo: the client's ACL user when restricted, for the
	// commands its scripts call (command.Ctx).
	User       *acl.User
	ClientInfo func() string

	// trackLater: a tracked read whose keys its group wrote before it;
	// they are tracked at the group's commit (runGrouped).
	trackLater bool
	wait       *waiter    // a waiter run again after a serve it could not take
	done       chan error // Exec's: receives the command's error after commit
	// onLoop: it runs on an event loop (RunHere, Session.Run), where a
	// command may refuse long work (command.ErrNotOnLoop).
	onLoop bool
	// panicked: it panicked in a group, which re-runs its commands alone
	// (runAlone): this one answers an internal error instead of panicking
	// again.
	panicked bool
	// took and failed are its run in a group, reported (Engine.report)
	// once the group commits: a group run again command by command
	// counts each command once, not once per attempt.
	took   time.Duration
	failed bool
	// arrived is when it was dispatched, and at the snapshot it reads
	// (snapshot.go); both only on a shared store.
	arrived time.Time
	at      uint64
	records *store.SnapshotRecords // the flush records read at at
	values  *store.SnapshotValues  // values read at at already
}

// Engine owns the actor system and the shards.
type Engine struct {
	sys      *actor.ActorSystem
	stopped  chan struct{} // closed by Stop: the shard dispatchers' goroutines end
	stopOnce sync.Once
	drv      drivers.Driver
	feed     feed // replication (feed.go)
	rt       Runtime
	log      *slog.Logger
	caches   []*store.MetaCache
	// readerCaches, when Owned, are the caches the snapshot readers use:
	// disabled, sharing the shards' access clocks, since the shards'
	// own are not safe for use off their goroutines.
	readerCaches []*store.MetaCache
	owned        bool
	pids         []*actor.PID
	shards       []*shard
	holds1       []func([]byte) bool // holds1[i] is holder([]int{i})
	guardian     *actor.PID
	all          []int
	maxRetry     int
	shared       bool // other nodes write the store (Options.Shared)
	// syncs reports whether each commit waits for a disk sync now
	// (drivers.CommitSyncer); nil: never.
	syncs func() bool
	hooks Hooks
	// hits and misses count the keys read-only commands found or not
	// (INFO keyspace_hits / keyspace_misses).
	hits, misses atomic.Int64
	// multiMu makes the enqueueing of a multi-shard command's messages
	// atomic, so every mailbox sees multi-shard commands in one global order.
	multiMu sync.Mutex
	// open is the barrier sent last, while later commands may still join
	// it (join); guarded by multiMu.
	open    *barrier
	markers *store.FlushMarkers
	lazy    lazyfree // big values deleted, until the GC reclaimed them
	blocked *blocked
	watches *watches
	// stopPoll ends the poller of keys with blocked clients (shared store).
	stopPoll chan struct{}
	// snaps is the driver's snapshots when reads run as snapshot reads
	// (shared store, snapshot.go); readers runs them, reads counts them
	// (Stop waits for them). stampRuns hands a stamp to an idle stamp
	// runner (runStamp).
	snaps     drivers.Snapshotter
	readers   *readerPool
	stampRuns chan *stamp
	reads     sync.WaitGroup
	// latest is the stamp reads may share (stampAfter); stampMu guards it.
	// inflight is the stamp asked for and not come yet, next the one
	// reads that arrived since wait for.
	stampMu  sync.Mutex
	latest   *stamp
	inflight *stamp
	next     *stamp
}

// barrier is a multi-shard command's message, or a bundle's (bundle.go):
// the same one goes to each of its shards.
type barrier struct {
	req    *Request   // the command, or a bundle's first
	bundle []*Request // a bundle's commands; nil for one command
	shards []int      // req.Shards, or the union of the bundle's
	left   atomic.Int32
	// joinable: the barrier's commands may go in a bundle (Bundles), so
	// others may join them until it starts (both guarded by multiMu).
	joinable, started bool
}

// New starts the engine's actors.
func New(o Options, drv drivers.Driver, reg *command.Registry, srv command.Server, log *slog.Logger) (*Engine, error) {
	if o.Shards < 1 {
		return nil, fmt.Errorf("actors: shards must be positive, got %d", o.Shards)
	}
	e := &Engine{stopped: make(chan struct{}), drv: drv, log: log, maxRetry: 16, blocked: newBlocked(), watches: newWatches(), hooks: o.Hooks,
		rt: Runtime{Server: srv, Registry: reg, Log: log, Cursors: store.NewCursors(o.ScanCursors), Panics: o.Panics}}
	e.sys = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(minLevel{slog.LevelWarn, log.Handler()}).With("component", "actor")
	}))
	if cs, ok := drv.(drivers.CommitSyncer); ok {
		e.syncs = cs.SyncsCommits
	}
	var err error
	if e.markers, err = store.LoadFlushMarkers(drv, o.Shared); err != nil {
		return nil, fmt.Errorf("actors: load flush markers: %w", err)
	}
	per := max(o.MetaCacheSize/o.Shards, 1)
	if o.Shared && !o.Owned || o.MetaCacheSize == 0 {
		per = 0 // disabled
	}
	e.owned = o.Shared && o.Owned
	if o.Shared {
		e.maxRetry, e.shared = 100, true
		if sn, ok := drv.(drivers.Snapshotter); ok {
			e.snaps = sn
			e.startReaders()
		}
	}
	start := time.Now().UnixMilli()
	for i := 0; i < o.Shards; i++ {
		c := store.NewMetaCache(per)
		clock := store.NewAccessClock(max(o.MetaCacheSize/o.Shards, 1024), start)
		clock.SetLFU(o.LFU)
		c.SetClock(clock)
		c.EnableMembers(o.MemberCacheSize / o.Shards)
		c.EnableLists(o.ListCacheBytes / o.Shards)
		e.caches = append(e.caches, c)
		if e.owned {
			rc := store.NewMetaCache(0)
			rc.SetClock(clock)
			e.readerCaches = append(e.readerCaches, rc)
		}
		e.all = append(e.all, i)
		e.holds1 = append(e.holds1, func(key []byte) bool { return e.ShardOf(key) == i })
	}
	ready := make(chan struct{})
	var once sync.Once
	props := actor.PropsFromProducer(func() actor.Actor {
		return &guardian{e: e, once: &once, ready: ready}
	}, actor.WithSupervisor(actor.NewOneForOneStrategy(100, time.Second, actor.DefaultDecider)))
	pid, err := e.sys.Root.SpawnNamed(props, "guardian")
	if err != nil {
		return nil, fmt.Errorf("actors: spawn guardian: %w", err)
	}
	e.guardian = pid
	<-ready
	if o.Shared {
		e.stopPoll = make(chan struct{})
		go e.poll(e.stopPoll)
	}
	return e, nil
}

// RunConn runs a connection command of client on its event loop,
// through the stages every command passes: the engine's Runtime
// (Runtime.StepConn: the Ctx and the panic guard), then the slow log and
// commandstats (done). A transaction command that hands its work to the
// shards (WATCH, EXEC answering ErrReplyLater) is timed there instead.
func (e *Engine) RunConn(w *resp.Writer, call Call, client Replier) error {
	t0 := time.Now()
	var waits time.Duration
	call.Waits = &waits
	err := e.rt.StepConn(w, call)
	later := errors.Is(err, command.ErrReplyLater)
	if !later || call.Spec.Flags&command.Transaction == 0 {
		e.done(client, call.Spec, call.Args, t0.Add(-waits), err != nil && !later)
	}
	return err
}

// FlushMarkers returns the databases' flush markers (read by the GC).
func (e *Engine) FlushMarkers() *store.FlushMarkers { return e.markers }

// Shards returns the number of shards.
func (e *Engine) Shards() int { return len(e.pids) }

// ShardOf returns the shard owning key: the hash of its hash tag when it
// has one (HashTag), so keys sharing a tag share a shard.
func (e *Engine) ShardOf(key []byte) int {
	return int(xxhash.Sum64(HashTag(key)) % uint64(len(e.caches)))
}

// HashTag returns the part of key that picks its shard, as Redis Cluster
// does: between the first '{' and the next '}' when that is not empty,
// else the whole key.
func HashTag(key []byte) []byte {
	open := bytes.IndexByte(key, '{')
	if open < 0 {
		return key
	}
	end := bytes.IndexByte(key[open+1:], '}')
	if end <= 0 {
		return key
	}
	return key[open+1 : open+1+end]
}

// Route returns the ascending shard indexes a command holds: those of its
// keys, or every shard for keyspace-wide and keyless commands.
func (e *Engine) Route(spec *command.Spec, args [][]byte) []int {
	if spec.Flags&(command.AllShards|command.Keyspace) != 0 {
		return e.all
	}
	var idx [8]int
	keys := spec.KeyIndexes(args, idx[:0])
	if len(keys) == 0 {
		return e.all
	}
	first, one := e.ShardOf(args[keys[0]]), true
	for _, i := range keys[1:] {
		one = one && e.ShardOf(args[i]) == first
	}
	if one { // most commands: no allocation (e.all is read-only)
		return e.all[first : first+1 : first+1]
	}
	shards := make([]int, 0, len(keys))
	for _, i := range keys {
		shards = append(shards, e.ShardOf(args[i]))
	}
	slices.Sort(shards)
	return slices.Compact(shards)
}

// Dispatch sends req to its actors without waiting. A command on several
// shards sends each of them its barrier now, in the caller's order, so no
// later command of the same client can overtake it on any of its shards;
// the last of them to reach it runs it (shard.reach).
func (e *Engine) Dispatch(req *Request) {
	if e.snaps != nil {
		req.arrived = time.Now()
	}
	if len(req.Shards) == 1 {
		e.sys.Root.Send(e.pids[req.Shards[0]], req)
		return
	}
	reqs := []*Request{req}
	if e.Bundles(req) && e.join(reqs) {
		return
	}
	e.send(&barrier{req: req, shards: req.Shards, joinable: e.Bundles(req)})
}

// send queues b at each of its shards, under multiMu: every mailbox holds
// the barriers in one order.
func (e *Engine) send(b *barrier) {
	b.left.Store(int32(len(b.shards)))
	e.multiMu.Lock()
	for _, i := range b.shards {
		e.sys.Root.Send(e.pids[i], b)
	}
	e.open = nil
	if b.joinable {
		e.open = b
	}
	e.multiMu.Unlock()
}

// SpawnChild starts an actor as a child of the root guardian, supervised
// like the shards (one-for-one restart).
func (e *Engine) SpawnChild(name string, producer actor.Producer) (*actor.PID, error) {
	res, err := e.sys.Root.RequestFuture(e.guardian, &spawnChild{name: name, props: actor.PropsFromProducer(producer)},
		10*time.Second).Result()
	if err != nil {
		return nil, fmt.Errorf("actors: spawn %s: %w", name, err)
	}
	sr := res.(spawnResult)
	return sr.pid, sr.err
}

type spawnChild struct {
	name  string
	props *actor.Props
}

type spawnResult struct {
	pid *actor.PID
	err error
}

// Exec runs an internal command (the GC's) on one shard through the same
// path as client commands and returns, once it has committed, the command's
// error: nil, or what its Run returned after the usual conflict retries.
// The runner keeps its own results; the reply bytes are dropped.
func (e *Engine) Exec(ctx context.Context, shard, db int, spec *command.Spec, run command.Runner) error {
	done := make(chan error, 1)
	e.Dispatch(&Request{Client: discard{}, Spec: spec, Runner: run, DB: db, Proto: 2, Shards: []int{shard}, done: done})
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// holder returns Call.Holds for a command holding shards: nil when it
// holds them all.
func (e *Engine) holder(shards []int) func([]byte) bool {
	if len(shards) >= len(e.caches) {
		return nil
	}
	if len(shards) == 1 {
		return e.holds1[shards[0]] // made once: most commands hold one shard
	}
	return func(key []byte) bool { return slices.Contains(shards, e.ShardOf(key)) }
}

// keys appends to into the keys req names (its key arguments).
func (req *Request) keys(into [][]byte) [][]byte {
	var idx [8]int
	for _, i := range req.Spec.KeyIndexes(req.Args, idx[:0]) {
		into = append(into, req.Args[i])
	}
	return into
}

// reply sends a committed (or failed) command's reply, and its error to
// Exec's caller.
func (req *Request) reply(out []byte, err error) {
	req.Client.Reply(req.Seq, out)
	if req.done != nil {
		req.done <- err
	}
}

// discard drops replies (Exec's commands).
type discard struct{}

func (discard) Reply(uint64, []byte) {}

// Stop lets every actor finish its queued commands, then stops them.
func (e *Engine) Stop(ctx context.Context) error {
	if e.stopPoll != nil {
		close(e.stopPoll)
	}
	f := e.sys.Root.PoisonFuture(e.guardian)
	done := make(chan error, 1)
	go func() {
		err := f.Wait()
		if errors.Is(err, actor.ErrTimeout) {
			// The future gives up after 10 s, but a shard may still be
			// in a store call (each bounded by the request timeout):
			// wait on for the guardian to go, as long as ctx allows.
			err = waitGone(ctx, func() bool {
				_, alive := e.sys.ProcessRegistry.Get(e.guardian)
				return alive
			}, err)
		}
		done <- err
	}()
	defer e.stopOnce.Do(func() { close(e.stopped) })
	select {
	case err := <-done:
		e.sys.Shutdown()
		e.reads.Wait()
		if e.readers != nil {
			e.readers.close()
			close(e.stampRuns)
		}
		return err
	case <-ctx.Done():
		e.sys.Shutdown()
		return ctx.Err()
	}
}

// execute runs req on the shard at index own and sends its reply.
func (e *Engine) execute(req *Request, own int) { e.executeIn(req, own, nil) }

// executeIn is execute with the scratch of the goroutine running it
// (nil: none).
func (e *Engine) executeIn(req *Request, own int, sc *runScratch) {
	var caches store.CacheResolver
	var purge func()
	switch {
	case len(req.Shards) > 1:
		caches, purge = e.cachesOf(req.Shards)
	case req.at != 0 && e.owned: // a snapshot reader's goroutine
		c := e.readerCaches[own]
		caches, purge = func([]byte) *store.MetaCache { return c }, func() {}
	default:
		caches, purge = e.shards[own].cacheFns()
	}
	t0 := time.Now()
	out, fx, err := e.run(req, caches, purge, sc)
	if errors.Is(err, command.ErrNotOnLoop) && req.onLoop {
		// Too long for the event loop it ran on: its shard runs it. Its
		// client's later commands wait for its reply (net runs in place
		// only a client's command with none unanswered before it), and
		// count it as coming.
		var nl *command.NotOnLoop
		if x, ok := req.Client.(ReplyExpecter); ok && errors.As(err, &nl) {
			x.ExpectReply(nl.Reply)
		}
		re := *req
		re.onLoop = false
		e.Dispatch(&re)
		return
	}
	rerun := errors.Is(err, command.ErrAllShards) && len(req.Shards) < len(e.all)
	if !errors.Is(err, command.ErrWouldBlock) && !rerun { // a blocked command is timed when served; a rerun when it ends
		e.timed(req, t0, err != nil || errorReply(out) || req.failed)
	}
	if rerun {
		// A script reached a key it did not declare: its attempt was
		// rolled back; run it again holding every shard. Its connection
		// reads nothing more until the reply (Flags Serial), so no later
		// command of that client overtakes it.
		re := *req
		re.Shards, re.at, re.records, re.values = e.all, 0, nil, nil
		e.Dispatch(&re)
		return
	}
	if errors.Is(err, command.ErrWouldBlock) {
		e.park(req, req.Runner.(command.Blocker))
	} else {
		e.replyAfterFlush(req, out, err, fx)
	}
	e.after(fx, req.Shards, caches)
}

// cachesOf returns the cache resolver of a command holding several
// shards (each key's meta in its own shard's cache) and a purge of those
// shards' caches.
func (e *Engine) cachesOf(shards []int) (store.CacheResolver, func()) {
	return func(mk []byte) *store.MetaCache { return e.caches[e.ShardOf(codec.MetaUserKey(mk))] }, func() {
		for _, i := range shards {
			e.caches[i].Purge()
		}
	}
}

// errorReply reports whether a reply is an error (RESP2 or RESP3).
func errorReply(b []byte) bool { return len(b) > 0 && (b[0] == '-' || b[0] == '!') }

// run executes the command in a transaction, retrying conflicts, and
// returns the reply, what the command changed, and the command's error
// (already written into the reply). command.ErrWouldBlock (a blocking
// command found every key empty and may wait) and errLost (a serve's
// waiter ended) write nothing.
func (e *Engine) run(req *Request, caches store.CacheResolver, purge func(), sc *runScratch) (out []byte, fx effects, _ error) {
	w := sc.writer(req.Proto)
	writable := req.Spec.Flags&command.Write != 0
	call := e.callOf(req, purge)
	var spare *store.Spare
	// nested are the commands run inside this one (a script's calls,
	// EXEC's), counted once the last attempt is done.
	var nested *[]command.CmdStat
	if sc != nil {
		call.Ctx, spare, nested = &sc.ctx, &sc.spare, &sc.nested
	} else {
		nested = new([]command.CmdStat)
	}
	if req.Track {
		call.TrackRead = e.startTracking(req.Client, req.Spec, req.Args)
	}
	call.Stats = nested
	defer func() { e.countNested(req.Client, *nested); clear(*nested) }()
	for attempt := 0; ; attempt++ {
		*nested, req.failed = (*nested)[:0], false
		tx, err := store.Env{Drv: e.drv, Caches: caches, Markers: e.markers, Notify: writable && e.rt.notifying(), Effects: e.effects(), At: req.at, Records: req.records, Values: req.values,
			PreWrite: req.Spec.Flags&command.Serial == 0, Spare: spare}.Begin(writable, req.DB, time.Now().UnixMilli())
		if err == nil {
			err = e.rt.Step(tx, w, call)
			if err == nil && !writable {
				e.countLookups(tx, req.Spec, req.Args)
			}
			if err == nil && writable {
				err = e.commit(tx)
			}
			if err == nil || errors.Is(err, command.ErrWouldBlock) {
				// A blocking command that found its key expired waits
				// on, and the key is deleted all the same, as a Redis
				// lookup deletes it (and replicates the DEL).
				e.expireSeen(tx)
			}
			if err == nil && writable {
				fx = effectsOf(tx)
				e.noteLazy(tx)
				e.publishNotes(tx)
				if req.Spec.Flags&command.Unseen == 0 {
					e.invalidate(req.Client, tx.Journal().Touched(), len(tx.Journal().Flushes()) > 0)
				}
				if x, ok := req.Runner.(*execRunner); ok {
					x.trackLater()
				}
			}
			tx.Rollback()
			tx.Release(spare)
		}
		if err == nil {
			return sc.reply(w), fx, nil
		}
		w.Reset(req.Proto)
		switch {
		case errors.Is(err, drivers.ErrConflict) && attempt < e.maxRetry:
			if e.shared {
				conflictBackoff(attempt)
			}
			continue
		case errors.Is(err, command.ErrWouldBlock), errors.Is(err, errLost), errors.Is(err, command.ErrNotOnLoop),
			errors.Is(err, command.ErrAllShards) && len(req.Shards) < len(e.all):
			return nil, effects{}, err
		}
		var re *rerr.Error
		if e.hooks.StorageError != nil && !errors.As(err, &re) && !errors.Is(err, drivers.ErrConflict) &&
			!errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrTooBig) && !errors.Is(err, store.ErrFenced) {
			e.hooks.StorageError(err)
		}
		command.Reply(w, err, req.Spec.FullName(), e.log)
		return sc.reply(w), effects{}, err
	}
}

// Enqueue queues run on shard, database db, as Exec does, and returns
// where its error comes once it ran; it does not wait.
func (e *Engine) Enqueue(shard, db int, spec *command.Spec, run command.Runner) <-chan error {
	done := make(chan error, 1)
	e.Dispatch(&Request{Client: discard{}, Spec: spec, Runner: run, DB: db, Proto: 2, Shards: []int{shard}, done: done})
	return done
}

// callOf returns the Call that runs req, purge emptying the caches of the
// shards it holds (nil: none to empty).
func (e *Engine) callOf(req *Request, purge func()) Call {
	return Call{Spec: req.Spec, Args: req.Args, Runner: req.Runner, NoBlock: req.NoBlock, Purge: purge, Holds: e.holder(req.Shards),
		NoTouch: req.NoTouch, User: req.User, ClientInfo: req.ClientInfo, OnLoop: req.onLoop, Failed: &req.failed}
}

// conflictBackoff sleeps before retry attempt+1 of a conflicting
// transaction: up to 100 µs doubling to 20 ms, jittered so that nodes
// contending for one key do not retry in lock step.
func conflictBackoff(attempt int) {
	ceiling := min(100*time.Microsecond<<min(attempt, 8), 20*time.Millisecond)
	time.Sleep(time.Duration(rand.Int64N(int64(ceiling)) + 1))
}

// waitGone polls alive until it reports false (nil) or ctx ends (err).
func waitGone(ctx context.Context, alive func() bool, err error) error {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for alive() {
		select {
		case <-ctx.Done():
			return err
		case <-t.C:
		}
	}
	return nil
}
