package actors

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/rekv/rekv/actors/store"
)

type guardian struct {
	e     *Engine
	once  *sync.Once
	ready chan struct{}
}

func (g *guardian) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*spawnChild); ok {
		pid, err := ctx.SpawnNamed(m.props, m.name)
		ctx.Respond(spawnResult{pid: pid, err: err})
		return
	}
	if _, ok := ctx.Message().(*actor.Started); !ok {
		return
	}
	g.once.Do(func() {
		for i := range g.e.caches {
			i := i
			sh := &shard{e: g.e, idx: i}
			g.e.shards = append(g.e.shards, sh)
			props := actor.PropsFromProducer(func() actor.Actor { return sh },
				actor.WithDispatcher(newShardDispatcher(g.e.stopped)),
				actor.WithMailbox(func() actor.Mailbox {
					sh.mb = actor.Unbounded()()
					return sh.mb
				}))
			g.e.pids = append(g.e.pids, ctx.Spawn(props))
		}
		close(g.ready)
	})
}

type shard struct {
	e   *Engine
	idx int
	// mu is held while the shard handles a message, from the time it
	// reaches a barrier until the barrier's command has run, and by a
	// caller running a command in its place
	// (RunHere): whoever holds it owns the shard's keys and cache.
	mu    sync.Mutex
	mb    actor.Mailbox // to see whether more requests wait (group commit)
	group *group        // the open group, see batch.go
	spare *group        // an emptied group to reuse (recycle)
	// spareTx lends the shard's groups the map of keys looked up that
	// the last one left (store.Spare).
	spareTx store.Spare
	// resolve and purge: the shard's cache resolver and purge, made once
	// by cacheFns.
	resolve store.CacheResolver
	purge   func()
	// queued are writes held to run together (shared store, batch.go);
	// ahead, those of them not yet run while they do.
	queued, ahead []*Request
	// snaps are the stamps the shard's reads used since it last ran
	// anything else, and ran when it did (snapshot.go).
	snaps []*stamp
	ran   time.Time
}

// cacheFns returns the resolver and the purge of s's cache, made at first
// use: a closure or method value made per command is an allocation each
// time. The caller holds s.
func (s *shard) cacheFns() (store.CacheResolver, func()) {
	if s.resolve == nil {
		c := s.e.caches[s.idx]
		s.resolve, s.purge = func([]byte) *store.MetaCache { return c }, c.Purge
	}
	return s.resolve, s.purge
}

func (s *shard) Receive(ctx actor.Context) {
	s.mu.Lock()
	if b, ok := ctx.Message().(*barrier); ok {
		if s.e.snaps != nil {
			s.settle() // the barrier's runner notes it ran on each shard (unlock)
		}
		s.reach(b)
		return
	}
	defer s.mu.Unlock()
	if m, ok := ctx.Message().(*Request); ok && s.e.snaps != nil && snapshotRead(m) {
		if s.e.owned && s.readCached(m) {
			s.runQueuedIfDue() // writes the read left queued
			return
		}
		s.readAt(m)
		s.runQueuedIfDue() // writes the read left queued
		return
	}
	if s.e.snaps != nil && !s.queues(ctx.Message()) {
		s.settle()
		defer s.noteRan()
	}
	switch m := ctx.Message().(type) {
	case *Request:
		if batchable(m, s.e.shared) {
			if s.e.shared {
				s.queue(m)
			} else {
				s.add(m, false)
			}
			return
		}
		s.flush()
		s.e.execute(m, s.idx)
	case *poke:
		s.servePoke(m)
	case *actor.Stopping:
		s.flush()
	case *actor.Restarting:
		if s.group != nil {
			s.fallback() // its commands still get replies
		}
		s.e.caches[s.idx].Purge()
	}
}

// reach handles a multi-shard command's barrier on s, locked: s commits
// its open group (the command must see every earlier write) and stays
// locked, so nothing else runs on it; the last of the command's shards to
// reach the barrier runs the command, holding them all, then unlocks them
// all. The barriers of different commands are queued in one order on every
// shard (Dispatch), so the earliest pending one always completes.
func (s *shard) reach(b *barrier) {
	s.flush()
	if b.left.Add(-1) > 0 {
		return
	}
	e := s.e
	defer e.unlock(b.shards)
	if b.joinable {
		e.start(b)
	}
	if b.bundle != nil {
		e.runBundle(b)
		return
	}
	e.execute(b.req, s.idx)
}

// minLevel drops records below a level; it quiets the actor system.
type minLevel struct {
	min slog.Level
	h   slog.Handler
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}

func (m minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }

func (m minLevel) WithAttrs(a []slog.Attr) slog.Handler { return minLevel{m.min, m.h.WithAttrs(a)} }

func (m minLevel) WithGroup(n string) slog.Handler { return minLevel{m.min, m.h.WithGroup(n)} }
