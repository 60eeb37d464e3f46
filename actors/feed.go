package actors

import (
	"sync"
	"sync/atomic"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers"
)

// Sink receives the effects of committed transactions: a replication
// master's stream (package repl).
type Sink interface {
	// Append takes one committed transaction's effects, in order. It is
	// called right after the commit, with the shards of the keys written
	// still held, so two transactions writing one key append in their
	// commit order; and inside Engine.Quiesce's read lock, so a snapshot
	// taken in Quiesce holds exactly the transactions appended before it.
	Append(fx []store.Effect)
}

// feed is the engine's side of replication: whether transactions record
// their effects, and where they go once committed.
type feed struct {
	mu   sync.RWMutex // read-held by each commit and its Append
	on   atomic.Bool
	sink Sink
}

// SetSink starts streaming the effects of every write committed from now
// on to s (once: a master keeps its stream). Transactions begun before,
// which recorded nothing, fail their commit with a conflict and run again.
func (e *Engine) SetSink(s Sink) {
	e.feed.mu.Lock()
	defer e.feed.mu.Unlock()
	if e.feed.on.Load() {
		return
	}
	e.feed.sink = s
	e.feed.on.Store(true)
}

// Quiesce runs fn while no transaction commits: what fn reads from the
// store (a snapshot it begins) holds exactly the writes whose effects
// reached the sink before it.
func (e *Engine) Quiesce(fn func()) {
	e.feed.mu.Lock()
	defer e.feed.mu.Unlock()
	fn()
}

// effects reports whether transactions begun now record effects.
func (e *Engine) effects() bool { return e.feed.on.Load() }

// commit commits tx and hands its effects to the sink. A transaction that
// wrote without recording its effects (begun before SetSink) is refused
// with a conflict, so it runs again and records them; one that wrote keys
// this node no longer serves (Options.Serves) is refused with the
// redirection.
func (e *Engine) commit(tx *store.Tx) error {
	e.feed.mu.RLock()
	defer e.feed.mu.RUnlock()
	on := e.feed.on.Load()
	if on && !tx.Repl().Collecting() && tx.Repl().Writes() > 0 {
		return drivers.ErrConflict
	}
	if e.hooks.Serves != nil && tx.Repl().Writes() > 0 {
		if err := e.hooks.Serves(tx.Journal().Touched()); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if fx := tx.Repl().Effects(); on && len(fx) > 0 {
		e.feed.sink.Append(fx)
	}
	return nil
}
