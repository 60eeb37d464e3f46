package actors

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
)

// trackKeys hands the keys of a tracked read to Options.Track.
func (e *Engine) trackKeys(client Replier, spec *command.Spec, args [][]byte) {
	if e.hooks.Track == nil || args == nil {
		return
	}
	var idx [8]int
	is := spec.KeyIndexes(args, idx[:0])
	if len(is) == 0 {
		return
	}
	keys := make([][]byte, len(is))
	for i, at := range is {
		keys[i] = args[at]
	}
	e.hooks.Track(client, keys)
}

// startTracking tracks, for a client with CLIENT TRACKING on, the keys a
// command reads: a read-only command's keys now; a script's declared keys
// once it calls a read-only command (the returned command.Ctx.TrackRead),
// as Redis 7.0 does.
func (e *Engine) startTracking(client Replier, spec *command.Spec, args [][]byte) func() {
	if e.hooks.Track == nil || client == nil {
		return nil
	}
	if spec.Script() {
		return func() { e.trackKeys(client, spec, args) }
	}
	e.trackKeys(client, spec, args)
	return nil
}

// countLookups adds a read-only command's keys to keyspace_hits or
// keyspace_misses: found or not in tx, where the command just looked
// them up (so the look-up is served from the transaction's own memory).
func (e *Engine) countLookups(tx *store.Tx, spec *command.Spec, args [][]byte) {
	if spec.Flags&command.ReadOnly == 0 || args == nil {
		return
	}
	var idx [8]int
	var hits, misses int64
	defer tx.Access().NoTouch(tx.Access().NoTouch(true)) // counting is no access
	for _, at := range spec.KeyIndexes(args, idx[:0]) {
		if ok, err := tx.Found(args[at]); err == nil && ok {
			hits++
		} else if err == nil {
			misses++
		}
	}
	if hits > 0 {
		e.hits.Add(hits)
	}
	if misses > 0 {
		e.misses.Add(misses)
	}
}

// KeyspaceStats returns keyspace_hits and keyspace_misses.
func (e *Engine) KeyspaceStats() (hits, misses int64) { return e.hits.Load(), e.misses.Load() }

// ResetKeyspaceStats zeroes them (CONFIG RESETSTAT).
func (e *Engine) ResetKeyspaceStats() {
	e.hits.Store(0)
	e.misses.Store(0)
}

// invalidate hands the keys a committed command wrote to
// Options.Invalidate.
func (e *Engine) invalidate(by Replier, keys []store.KeyRef, flushed bool) {
	if e.hooks.Invalidate != nil && (len(keys) > 0 || flushed) {
		e.hooks.Invalidate(by, keys, flushed)
	}
}

// effects are what a committed command changed, for watchers, blocked
// clients and notifications.
type effects struct {
	ready, touched []store.KeyRef
	reaped         []store.KeyRef // of touched, those only removed as expired
	flushed        []int
	swapped        [][2]int
}

// effectsOf returns what tx's committed commands changed.
func effectsOf(tx *store.Tx) effects {
	j := tx.Journal()
	return effects{ready: j.Ready(), touched: j.Touched(), reaped: j.Reaped(), flushed: j.Flushes(), swapped: j.Swaps()}
}

// after reacts to a committed command: WATCHes of the keys it touched
// break, then clients blocked on the keys it pushed to, deleted by a
// flush or moved by a swap are served (which may commit more).
func (e *Engine) after(fx effects, held []int, caches store.CacheResolver) {
	e.watches.touch(fx.touched, fx.flushed, fx.reaped)
	if e.hooks.Ready != nil && len(fx.ready) > 0 {
		e.hooks.Ready(fx.ready)
	}
	ready := fx.ready
	for _, db := range fx.flushed {
		// Every key a client waits on in a flushed database was deleted:
		// served, a stream reader group's waiter learns it (UNBLOCKED),
		// others wait on, as Redis's scanDatabaseForDeletedKeys.
		ready = append(ready, e.blocked.keysIn(db, db)...)
	}
	if len(fx.swapped) > 0 {
		ready = append(ready, e.afterSwap(fx.swapped, caches)...)
	}
	if len(ready) > 0 {
		e.serve(ready, held, caches)
	}
}

// afterSwap reacts to SWAPDB, as Redis does: a watched key of either
// database breaks its WATCH if it exists in one of them; every key with
// blocked clients in either is returned to be served (the serve checks
// what the key now holds). The caller holds every shard.
func (e *Engine) afterSwap(pairs [][2]int, caches store.CacheResolver) []store.KeyRef {
	var ready []store.KeyRef
	for _, p := range pairs {
		if keys := e.watches.keysIn(p[0], p[1]); len(keys) > 0 {
			var broken []store.KeyRef
			tx, err := store.Env{Drv: e.drv, Caches: caches, Markers: e.markers}.Begin(false, 0, time.Now().UnixMilli())
			for _, k := range keys {
				if err != nil {
					broken = append(broken, k) // cannot tell: break it
					continue
				}
				other := p[0] + p[1] - k.DB
				_, in, err1 := tx.MetaIn(k.DB, k.Key)
				_, out, err2 := tx.MetaIn(other, k.Key)
				if in || out || err1 != nil || err2 != nil {
					broken = append(broken, k)
				}
			}
			if tx != nil {
				tx.Rollback()
			}
			e.watches.touch(broken, nil, nil)
		}
		ready = append(ready, e.blocked.keysIn(p[0], p[1])...)
	}
	return ready
}

// expireSeen hands the keys tx's commands found expired to the Expired
// hook (lazy expiry).
func (e *Engine) expireSeen(tx *store.Tx) {
	if e.hooks.Expired == nil {
		return
	}
	if refs := tx.Journal().Expired(); len(refs) > 0 {
		e.hooks.Expired(refs)
	}
}
