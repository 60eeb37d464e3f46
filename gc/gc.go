package gc

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Options tune the collector.
type Options struct {
	Interval  time.Duration // between passes
	BatchSize int           // TTL and garbage entries read per pass
	// MaxKeysPerSecond caps the keys expired plus sub-keys deleted per
	// second while clients send commands (0: no cap); while none do,
	// passes follow one another at once.
	MaxKeysPerSecond int
	// Foreground counts the commands clients sent (any counter that moves
	// when they send some); nil: always capped.
	Foreground     func() int64
	OrphanInterval time.Duration // between orphan-sweep steps; 0 disables the sweep
	OrphanBatch    int           // versions checked per orphan-sweep step
	// MeterInterval is the time between two walks of the namespace
	// meter (meter.go; 0 disables it), MeterBatch the keys it reads per
	// step.
	MeterInterval time.Duration
	MeterBatch    int
	// CompactAfter asks a driver that supports it (drivers.Compactor) to
	// compact once this many keys were deleted since its last compaction
	// and the backlog is empty; 0 never asks.
	CompactAfter int64
	// Lease, when set (a store shared by several nodes), makes this node
	// collect only while it holds the lease, and re-read the flush
	// markers other nodes may have written before each pass.
	Lease *Lease
	// Owns, when set (cluster mode, instead of Lease), makes this node
	// collect only the keys it owns (their hash slot's owner), so every
	// node collects at once, each its own slots; the flush markers are
	// re-read before each pass. Sweeps then tells whether this node runs
	// the orphan sweep (one node: the owner of slot 0).
	Owns   func(key []byte) bool
	Sweeps func() bool
	// ExpireCycle, when set, is told how long each pass's expiry of keys
	// and hash fields took (its shards' clients waited for it): Redis's
	// "expire-cycle" latency event.
	ExpireCycle func(time.Duration)
	// Paused, when set, reports whether a CLIENT PAUSE is in force:
	// keys are then neither expired by passes nor lazily (they still
	// read as expired), as Redis skips both during a pause so a paused
	// master's data, and its replicas', stay still.
	Paused func() bool
}

// paused reports whether a CLIENT PAUSE holds expiry back.
func (c *Collector) paused() bool { return c.o.Paused != nil && c.o.Paused() }

// mine reports whether this node collects key.
func (c *Collector) mine(key []byte) bool { return c.o.Owns == nil || c.o.Owns(key) }

// Stats are the collector's counters; they outlive restarts.
type Stats struct {
	KeysExpired       atomic.Int64
	FieldsExpired     atomic.Int64 // hash fields expired (Redis's expired_subkeys)
	FlushedReclaimed  atomic.Int64 // metas removed after FLUSHDB
	VersionsReclaimed atomic.Int64
	// LazyFreed counts the reclaimed versions of more than
	// store.LazyFreeThreshold members: those Redis would free in the
	// background (INFO's lazyfreed_objects).
	LazyFreed       atomic.Int64
	SubkeysDeleted  atomic.Int64
	Passes          atomic.Int64
	Restarts        atomic.Int64
	OrphansFound    atomic.Int64 // dead versions with no garbage entry, found by the sweep
	Compactions     atomic.Int64 // driver compactions asked for
	BacklogVersions atomic.Int64 // garbage entries pending at the last pass (counted up to 10 batches)
	BacklogExpired  atomic.Int64 // due TTL entries at the last pass (counted up to 10 batches)
	LeaseHeld       atomic.Int64 // lease checks this node won (shared store)
	// Current rates: keys expired and sub-keys deleted per second over
	// the last second or so (set by the collector, see sampleRates).
	ExpiredPerSec, SubkeysPerSec atomic.Int64
}

// Fields returns the counters as INFO lines.
func (s *Stats) Fields() [][2]string {
	f := func(v *atomic.Int64) string { return strconv.FormatInt(v.Load(), 10) }
	return [][2]string{
		{"gc_keys_expired", f(&s.KeysExpired)},
		{"gc_hash_fields_expired", f(&s.FieldsExpired)},
		{"gc_flushed_keys_reclaimed", f(&s.FlushedReclaimed)},
		{"gc_versions_reclaimed", f(&s.VersionsReclaimed)},
		{"gc_lazyfreed_objects", f(&s.LazyFreed)},
		{"gc_subkeys_deleted", f(&s.SubkeysDeleted)},
		{"gc_backlog_versions", f(&s.BacklogVersions)},
		{"gc_backlog_expired", f(&s.BacklogExpired)},
		{"gc_keys_expired_per_sec", f(&s.ExpiredPerSec)},
		{"gc_subkeys_deleted_per_sec", f(&s.SubkeysPerSec)},
		{"gc_orphans_found", f(&s.OrphansFound)},
		{"gc_compactions", f(&s.Compactions)},
		{"gc_passes", f(&s.Passes)},
		{"gc_restarts", f(&s.Restarts)},
		{"gc_lease_held", f(&s.LeaseHeld)},
	}
}

// Engine is what the collector needs from the actor engine.
type Engine interface {
	ShardOf(key []byte) int
	FlushMarkers() *store.FlushMarkers
	Exec(ctx context.Context, shard, db int, spec *command.Spec, run command.Runner) error
	Enqueue(shard, db int, spec *command.Spec, run command.Runner) <-chan error
	SpawnChild(name string, producer actor.Producer) (*actor.PID, error)
}

// Collector runs passes; Start wraps it in a supervised actor.
type Collector struct {
	o     Options
	drv   drivers.Driver
	eng   Engine
	stats *Stats
	log   *slog.Logger
	// beforePass, if set, runs at the start of every timer pass (tests
	// inject panics with it).
	beforePass atomic.Pointer[func()]
	// beforeRun, if set, runs after a walk and before its removals run
	// on their shards (tests write keys in between).
	beforeRun atomic.Pointer[func()]
	// passMu makes passes one at a time (the actor's and direct calls
	// share the cursors and hints below).
	passMu sync.Mutex

	// Flush sweep progress per db: only hints, storage decides. swept is
	// the marker a full sweep found nothing under; cursor where the
	// current sweep resumes; found whether this sweep reclaimed anything.
	swept  map[int]uint64
	cursor map[int][]byte
	found  map[int]bool
	// resume holds the progress of each garbage entry being reclaimed
	// over several chunks.
	resume map[string]*resumePoint
	// sinceCompact counts keys deleted since the last driver compaction.
	sinceCompact int64
	leased       bool // held the lease at the last check
	// Where the next pass reads the TTL and garbage entries: hints that
	// step over the tombstones of those already done (see expire).
	ttlCursor, garbageCursor []byte
	fieldCursor              []byte   // where the hash-field expiry walk goes on (fields.go)
	lastForeground           int64    // Options.Foreground at the last pace
	rates                    struct { // the counters at the last sampleRates
		at               time.Time
		expired, subkeys int64
	}
	// When the backlogs were last counted (see countBacklog).
	countedVersions, countedExpired time.Time
	// meter is the namespace meter's walk in progress (meter.go).
	meter meterWalk
	// noExpire pauses the expiry of keys (DEBUG SET-ACTIVE-EXPIRE 0).
	noExpire atomic.Bool
	// life ends at Stop: a pass in progress gives up at its next step,
	// so a shutdown does not wait on a long reclaim.
	life context.Context
	stop context.CancelFunc
}

// New returns a collector; it does nothing until Start.
func New(o Options, drv drivers.Driver, eng Engine, stats *Stats, log *slog.Logger) *Collector {
	life, stop := context.WithCancel(context.Background())
	return &Collector{o: o, drv: drv, eng: eng, stats: stats, log: log, life: life, stop: stop,
		swept: map[int]uint64{}, cursor: map[int][]byte{}, found: map[int]bool{}}
}

// Stop ends the timer pass in progress at its next step and makes later
// timer passes return at once; call it before stopping the engine. What a
// pass had deleted stays deleted; the rest waits for the next start.
func (c *Collector) Stop() { c.stop() }

// SetActiveExpire pauses (false) or resumes the expiry of keys; expired
// keys read as missing either way.
func (c *Collector) SetActiveExpire(on bool) { c.noExpire.Store(!on) }

// SetBeforePass installs a hook run at the start of every timer pass;
// tests inject faults with it. Safe while the collector runs.
func (c *Collector) SetBeforePass(fn func()) { c.beforePass.Store(&fn) }

// SetBeforeRun installs a hook that runs between a walk of the TTL index
// or of flushed keys and the removals it found, run on their shards.
func (c *Collector) SetBeforeRun(fn func()) { c.beforeRun.Store(&fn) }

func (c *Collector) runHook() {
	if fn := c.beforeRun.Load(); fn != nil {
		(*fn)()
	}
}

// Start spawns the collector's actor under the engine's guardian.
func (c *Collector) Start() error {
	_, err := c.eng.SpawnChild("gc", func() actor.Actor { return &gcActor{c: c} })
	return err
}

type tick struct{}

type orphanTick struct{}

type meterTick struct{}

type gcActor struct{ c *Collector }

func (a *gcActor) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started:
		a.schedule(ctx)
		a.scheduleOrphans(ctx)
		a.scheduleMeter(ctx, a.c.o.MeterInterval)
	case meterTick:
		next := a.c.o.MeterInterval
		if a.c.holding() && (a.c.o.Sweeps == nil || a.c.o.Sweeps()) {
			mctx, cancel := context.WithTimeout(a.c.life, 10*time.Second)
			ended, err := a.c.MeterStep(mctx)
			cancel()
			switch {
			case err != nil:
				if a.c.life.Err() == nil {
					a.c.log.Warn("gc namespace meter", "err", err)
				}
			case !ended:
				next = a.c.o.Interval // the walk goes on
			}
		}
		a.scheduleMeter(ctx, next)
	case orphanTick:
		if !a.c.holding() || a.c.o.Sweeps != nil && !a.c.o.Sweeps() {
			a.scheduleOrphans(ctx)
			return
		}
		if _, err := a.c.OrphanStep(); err != nil {
			a.c.log.Warn("gc orphan sweep", "err", err)
		}
		a.scheduleOrphans(ctx)
	case *actor.Restarting:
		a.c.stats.Restarts.Add(1)
	case tick:
		if fn := a.c.beforePass.Load(); fn != nil {
			(*fn)()
		}
		a.c.sampleRates(time.Now())
		// A deadline: during shutdown a stopped shard never answers, and
		// the guardian must not wait on a blocked collector.
		next := a.c.o.Interval
		if a.c.holding() {
			pctx, cancel := context.WithTimeout(a.c.life, 10*time.Second)
			t0 := time.Now()
			n, err := a.c.Pass(pctx)
			switch {
			case err != nil:
				if a.c.life.Err() == nil { // not stopped
					a.c.log.Warn("gc pass", "err", err)
				}
			case n >= a.c.o.BatchSize:
				next = a.c.pace(n, time.Since(t0)) // a backlog: go on
			}
			cancel()
		}
		a.scheduleIn(ctx, next)
	}
}

// pace returns how long to wait after a pass that did n keys in took and
// used its whole budget (so more is waiting): while clients send commands,
// no longer than keeps the rate under MaxKeysPerSecond; at once without a
// cap or clients. The passes go
// through the shards' mailboxes like client commands, so clients' commands
// interleave with them.
func (c *Collector) pace(n int, took time.Duration) time.Duration {
	if c.o.MaxKeysPerSecond <= 0 || !c.clientsActive() {
		return 0
	}
	return max(0, time.Duration(float64(n)/float64(c.o.MaxKeysPerSecond)*float64(time.Second))-took)
}

// sampleRates sets the current rates in Stats once a second or more has
// passed since the last sample.
func (c *Collector) sampleRates(now time.Time) {
	el := now.Sub(c.rates.at)
	if el < time.Second {
		return
	}
	exp, sub := c.stats.KeysExpired.Load(), c.stats.SubkeysDeleted.Load()
	if !c.rates.at.IsZero() {
		c.stats.ExpiredPerSec.Store(int64(float64(exp-c.rates.expired) / el.Seconds()))
		c.stats.SubkeysPerSec.Store(int64(float64(sub-c.rates.subkeys) / el.Seconds()))
	}
	c.rates.at, c.rates.expired, c.rates.subkeys = now, exp, sub
}

// clientsActive reports whether clients sent commands since the last
// call (always true without Options.Foreground).
func (c *Collector) clientsActive() bool {
	if c.o.Foreground == nil {
		return true
	}
	n := c.o.Foreground()
	active := n != c.lastForeground
	c.lastForeground = n
	return active
}

func (a *gcActor) schedule(ctx actor.Context) { a.scheduleIn(ctx, a.c.o.Interval) }

func (a *gcActor) scheduleIn(ctx actor.Context, d time.Duration) {
	sys, self := ctx.ActorSystem(), ctx.Self()
	if d <= 0 {
		sys.Root.Send(self, tick{})
		return
	}
	time.AfterFunc(d, func() { sys.Root.Send(self, tick{}) })
}

func (a *gcActor) scheduleMeter(ctx actor.Context, d time.Duration) {
	if a.c.o.MeterInterval <= 0 {
		return
	}
	sys, self := ctx.ActorSystem(), ctx.Self()
	time.AfterFunc(d, func() { sys.Root.Send(self, meterTick{}) })
}

func (a *gcActor) scheduleOrphans(ctx actor.Context) {
	if a.c.o.OrphanInterval <= 0 {
		return
	}
	sys, self := ctx.ActorSystem(), ctx.Self()
	time.AfterFunc(a.c.o.OrphanInterval, func() { sys.Root.Send(self, orphanTick{}) })
}

// holding reports whether this node may collect now: not while the store
// fails its Check (the node's health check logs why, once; a pass would
// only fail and log again each tick); otherwise always without a lease,
// and with one while it holds it.
func (c *Collector) holding() bool {
	if ch, ok := c.drv.(drivers.Checker); ok && ch.Check() != nil {
		return false
	}
	if c.o.Lease == nil {
		return true
	}
	ok, err := c.o.Lease.Hold(c.drv)
	if err != nil {
		c.log.Warn("gc lease", "err", err)
		return false
	}
	if ok != c.leased {
		c.leased = ok
		c.log.Info("gc lease", "held", ok)
	}
	if !ok {
		return false
	}
	c.stats.LeaseHeld.Add(1)
	return true
}

// budget is how many keys a pass may delete or expire: BatchSize (the
// rate cap is kept by pacing the passes, see pace).
func (c *Collector) budget() int { return c.o.BatchSize }

// Pass runs one bounded pass and returns how many keys it expired or
// deleted.
func (c *Collector) Pass(ctx context.Context) (int, error) {
	c.passMu.Lock()
	defer c.passMu.Unlock()
	c.stats.Passes.Add(1)
	if c.eng.FlushMarkers().Shared() { // another node may have flushed
		if err := c.eng.FlushMarkers().Reload(c.drv); err != nil {
			return 0, fmt.Errorf("gc: reload flush markers: %w", err)
		}
	}
	budget := c.budget()
	var n int
	var err error
	if !c.noExpire.Load() && !c.paused() {
		t0 := time.Now()
		if n, err = c.expire(ctx, budget); err != nil {
			return n, err
		}
		fe, err := c.expireFields(ctx, budget-n)
		n += fe
		if err != nil {
			return n, err
		}
		if c.o.ExpireCycle != nil {
			c.o.ExpireCycle(time.Since(t0))
		}
	}
	f, err := c.sweepFlushed(ctx, budget-n)
	if err != nil {
		return n + f, err
	}
	m, err := c.reclaim(ctx, budget-n-f)
	if err != nil {
		return n + f + m, err
	}
	c.sinceCompact += int64(n + f + m)
	if err := c.maybeCompact(); err != nil {
		return n + f + m, err
	}
	return n + f + m, nil
}

// maybeCompact asks the driver to compact once enough was deleted and the
// garbage backlog is drained.
func (c *Collector) maybeCompact() error {
	cp, ok := c.drv.(drivers.Compactor)
	if !ok || c.o.CompactAfter <= 0 || c.sinceCompact < c.o.CompactAfter || c.stats.BacklogVersions.Load() > 0 {
		return nil
	}
	c.sinceCompact = 0
	c.stats.Compactions.Add(1)
	t0 := time.Now()
	err := cp.Compact()
	c.log.Info("gc: storage compacted", "took", time.Since(t0).Round(time.Millisecond), "err", err)
	return err
}

// sweepFlushed removes, through their shards, metas that FLUSHDB's markers
// hide (their collections' versions become garbage for reclaim).
func (c *Collector) sweepFlushed(ctx context.Context, budget int) (int, error) {
	markers := c.eng.FlushMarkers()
	done := 0
	// Slots, not databases: markers belong to the slots (see
	// store.DBRecord); every namespace's.
	for _, db := range markers.FlushedSlots() {
		if done >= budget {
			break
		}
		marker := markers.Get(db)
		if marker == 0 || c.swept[db] == marker {
			continue
		}
		groups := map[int][][]byte{}
		n, end := 0, false
		start, stop := codec.MetaRange(codec.Slot(db))
		if c.cursor[db] != nil {
			start = c.cursor[db]
		}
		err := c.read(func(tx drivers.Txn) error {
			end = true
			return tx.Iterate(start, stop, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
				if n >= budget-done {
					c.cursor[db], end = command.Copy(k), false
					return false, nil
				}
				m, _, err := codec.DecodeMeta(v)
				if err != nil {
					return false, err
				}
				if m.Version < marker {
					if _, key, _ := codec.DecodeMetaKey(k); c.mine(key) {
						sh := c.eng.ShardOf(key)
						groups[sh] = append(groups[sh], command.Copy(key))
					}
					n++
				}
				return true, nil
			})
		})
		if err != nil {
			return done, err
		}
		if len(groups) > 0 {
			c.runHook()
		}
		for sh, keys := range groups {
			for _, part := range runParts(markers.Shared(), keys) {
				run := &reclaimFlushedRun{keys: part, slot: db}
				if err := c.eng.Exec(ctx, sh, markers.DBOf(db), reclaimFlushedSpec(), run); err != nil {
					return done, err
				}
				done += run.n
				c.stats.FlushedReclaimed.Add(int64(run.n))
			}
		}
		if n > 0 {
			c.found[db] = true
		}
		if end {
			if !c.found[db] {
				c.swept[db] = marker // a whole sweep found nothing left
			}
			c.cursor[db], c.found[db] = nil, false
		}
	}
	return done, nil
}

// sharedRunKeys bounds the keys of one run of the flush sweep on a shard
// of a shared store (TiKV): a run holds the shard for its round trips and
// the commit of all its deletions, and the clients' commands wait behind
// it. After a FLUSHALL of 86,000 keys, GET -P 1's p99 while the sweep ran
// was 29-31 ms with runs of 1,000 keys, 14-17 with 256, 13-14 with 128; the
// sweep took 7.6-9.4 s, 7.1-11.5 and 11.4-12.9. (Expiry keeps one run a
// pass: split so, it fell behind, 46-61,000 of 80,000 expired keys still
// stored when a GET run that outlasted them with one run ended.)
const sharedRunKeys = 256

// runParts splits the keys of one shard's run into the runs to send it:
// at most sharedRunKeys each on a shared store, one run elsewhere.
func runParts[T any](shared bool, items []T) [][]T {
	if !shared || len(items) <= sharedRunKeys {
		return [][]T{items}
	}
	var parts [][]T
	for len(items) > 0 {
		n := min(len(items), sharedRunKeys)
		parts = append(parts, items[:n:n])
		items = items[n:]
	}
	return parts
}

// reclaimFlushedRun deletes flushed metas on their shard; n is how many.
type reclaimFlushedRun struct {
	keys [][]byte
	slot int // where the keys are stored
	n    int
}

// reclaimFlushedSpec declares the GC's removal of flushed keys: a write
// that raises no keyspace event (FLUSHDB raised none either).
func reclaimFlushedSpec() *command.Spec {
	return &command.Spec{Name: "gc-flush", Flags: command.Write | command.Unseen | command.NoTouch}
}

func (r *reclaimFlushedRun) Run(c *command.Ctx) error {
	r.n = 0 // a conflict re-runs it
	if c.Tx.Records().Slot() != r.slot {
		return nil // SWAPDB since the walk (or another node's): next round
	}
	// On a shared store, one round trip for all their metas, not one
	// each while the shard waits (1,000 a pass: GETs queued behind it
	// for over 100 ms after a FLUSHALL on the network cluster).
	c.Tx.Prefetch(r.keys)
	for _, k := range r.keys {
		ok, err := c.Tx.Records().ReclaimFlushed(k)
		if err != nil {
			return err
		}
		if ok {
			r.n++
		}
	}
	return nil
}

type ttlItem struct {
	expireAt int64
	key      []byte
}

func (c *Collector) read(fn func(tx drivers.Txn) error) error {
	tx, err := c.drv.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}
