package actors

import (
	"context"
	"errors"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/resp"
)

// Owned mode (Options.Owned): in cluster mode a node serves the keys of
// its slots alone, so its shards' meta caches are authoritative for them
// as on Badger, and a read found whole in its shard's cache is answered
// there, without a timestamp or a read from the store.
//
// Invariants:
//   - A cached read runs on its shard's goroutine, after every write of
//     the shard committed before it (their cache entries are published at
//     commit, before their replies), and only when no write the shard
//     holds (queued or in its open group) may touch its keys: its client
//     may have sent that write first.
//   - It checks that the node serves its keys (Options.Serves) under the
//     commit barrier's read lock, and that its lease holds by its own
//     clock (Options.Leased): once a new slot map is published and a
//     Quiesce returned, no read or write the map refuses runs, and once
//     the lease may have ended nothing is read from the caches.
//   - Anything not in the cache (a miss, a value not cached) ends the
//     attempt (errNeedStore) and the read takes the snapshot path
//     instead; the attempt wrote no reply.
//   - The caches are emptied (PurgeCaches) before the node serves slots
//     it did not serve: entries of an earlier ownership may be stale.

// errNeedStore ends a cached read that needs the store.
var errNeedStore = errors.New("actors: not in the cache")

// cacheOnly is the driver of a cached read: it begins no transaction.
type cacheOnly struct{ drivers.Driver }

func (cacheOnly) Begin(bool) (drivers.Txn, error) { return nil, errNeedStore }

// readCached answers req, a snapshotRead, from the shard's cache when it
// can, and reports whether it did. The caller holds s.
func (s *shard) readCached(req *Request) bool {
	if s.group != nil || len(s.queued) > 0 && s.queuedTouch(req) || req.Spec.Flags&command.Serial != 0 {
		return false // scripts run once: their attempt could log or count
	}
	e := s.e
	if e.hooks.Leased != nil && !e.hooks.Leased() {
		return false
	}
	e.feed.mu.RLock()
	defer e.feed.mu.RUnlock()
	var buf [8][]byte
	keys := req.keys(buf[:0])
	if len(keys) == 0 {
		return false
	}
	if e.hooks.Serves != nil {
		var rbuf [8]store.KeyRef
		refs := rbuf[:0]
		for _, k := range keys {
			refs = append(refs, store.KeyRef{DB: req.DB, Key: k})
		}
		if e.hooks.Serves(refs) != nil {
			return false // the snapshot path answers (or refuses) it
		}
	}
	caches, _ := s.cacheFns()
	t0 := time.Now()
	out, ok := e.runCached(req, caches)
	if !ok {
		return false
	}
	e.timed(req, t0, errorReply(out))
	req.reply(out, nil)
	return true
}

// runCached runs req on a transaction that reads nothing but caches; ok
// false when it needed the store.
func (e *Engine) runCached(req *Request, caches store.CacheResolver) (out []byte, ok bool) {
	tx, err := store.Env{Drv: cacheOnly{}, Caches: caches, Markers: e.markers}.Begin(false, req.DB, time.Now().UnixMilli())
	if err != nil {
		return nil, false
	}
	defer tx.Rollback()
	var nested []command.CmdStat
	w := resp.NewWriter(req.Proto)
	call := e.callOf(req, nil)
	call.Stats = &nested
	err = e.rt.Step(tx, w, call)
	if errors.Is(err, errNeedStore) {
		return nil, false
	}
	e.countNested(req.Client, nested)
	if err != nil {
		w.Reset(req.Proto)
		command.Reply(w, err, req.Spec.FullName(), e.log)
		return w.Bytes(), true
	}
	e.countLookups(tx, req.Spec, req.Args)
	return w.Bytes(), true
}

// purgeSpec is PurgeCaches's command: it holds every shard.
func purgeSpec() *command.Spec {
	return &command.Spec{Name: "purge-caches", Flags: command.AllShards | command.Unseen}
}

type purgeRun struct{}

func (purgeRun) Run(c *command.Ctx) error {
	c.PurgeCaches()
	return nil
}

// PurgeCaches empties every shard's meta caches, holding them all, and
// returns once done.
func (e *Engine) PurgeCaches(ctx context.Context) error {
	done := make(chan error, 1)
	e.Dispatch(&Request{Client: discard{}, Spec: purgeSpec(), Runner: purgeRun{}, Proto: 2, Shards: e.all, done: done})
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
