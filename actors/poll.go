package actors

import (
	"slices"
	"time"

	"github.com/rekv/rekv/actors/store"
)

// Blocked clients on a shared store.
//
// A push from another node never passes through this node's shards, so
// nothing here would wake this node's blocked clients. On a shared store
// the engine therefore polls: every pollInterval, each key a client waits
// on is re-checked on its shard (a poke), which serves its waiters exactly
// as a local push would. Waiters keep their order on this node; across
// nodes, whoever pops first wins.

// pollInterval is how often keys with blocked clients are re-checked on a
// shared store: the added latency of a cross-node wake-up.
const pollInterval = 50 * time.Millisecond

// poke asks a shard to serve the waiters of keys it owns.
type poke struct {
	keys []store.KeyRef
}

// waitedKeys returns the keys blocked clients wait on, by shard.
func (e *Engine) waitedKeys() map[int][]store.KeyRef {
	if e.blocked.n.Load() == 0 {
		return nil
	}
	e.blocked.mu.Lock()
	defer e.blocked.mu.Unlock()
	out := map[int][]store.KeyRef{}
	for wk := range e.blocked.byKey {
		s := e.ShardOf([]byte(wk.key))
		out[s] = append(out[s], store.KeyRef{DB: wk.db, Key: []byte(wk.key)})
	}
	return out
}

// poll pokes the shards of waited keys until stop closes.
func (e *Engine) poll(stop <-chan struct{}) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			for s, keys := range e.waitedKeys() {
				e.sys.Root.Send(e.pids[s], &poke{keys: keys})
			}
		}
	}
}

// Poke serves at once this node's clients blocked on keys another node
// pushed to (its Options.Ready, carried by the bus), as the next poll
// would: keys nobody here waits on are skipped.
func (e *Engine) Poke(keys []store.KeyRef) {
	if e.blocked.n.Load() == 0 {
		return
	}
	byShard := map[int][]store.KeyRef{}
	e.blocked.mu.Lock()
	for _, k := range keys {
		if _, ok := e.blocked.byKey[waitKey{db: k.DB, key: string(k.Key)}]; ok {
			s := e.ShardOf(k.Key)
			byShard[s] = append(byShard[s], store.KeyRef{DB: k.DB, Key: slices.Clone(k.Key)})
		}
	}
	e.blocked.mu.Unlock()
	for s, ks := range byShard {
		e.sys.Root.Send(e.pids[s], &poke{keys: ks})
	}
}

// servePoke runs on shard s: its waiters take what other nodes pushed.
func (s *shard) servePoke(p *poke) {
	s.flush()
	c := s.e.caches[s.idx]
	s.e.serve(p.keys, []int{s.idx}, func([]byte) *store.MetaCache { return c })
}
