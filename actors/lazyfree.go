package actors

import (
	"sync"

	"github.com/rekv/rekv/actors/store"
)

// lazyfree follows, for INFO's lazyfree_pending_objects, the garbage
// entries of the values of more than store.LazyFreeThreshold members
// deleted through this node (store.Journal.Lazy), until the GC — this
// node's, or another node's on a shared store — has reclaimed them: each
// look checks which are still stored. Redis's count goes up at UNLINK and
// down when its background thread is done; a count kept by the GC's
// passes alone read 0 right after the UNLINK.
type lazyfree struct {
	mu   sync.Mutex
	keys map[string]struct{}
	lost bool // more were pending than maxLazyTracked: some are not followed
}

// maxLazyTracked bounds the entries followed (and read at each look).
const maxLazyTracked = 4096

// noteLazy follows the big values tx deleted (it committed).
func (e *Engine) noteLazy(tx *store.Tx) {
	keys := tx.Journal().Lazy()
	if len(keys) == 0 {
		return
	}
	l := &e.lazy
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.keys == nil {
		l.keys = make(map[string]struct{})
	}
	for _, k := range keys {
		if len(l.keys) >= maxLazyTracked {
			l.lost = true
			return
		}
		l.keys[string(k)] = struct{}{}
	}
}

// PendingLazyfree returns how many values of more than
// store.LazyFreeThreshold members deleted through this node the GC has
// not reclaimed yet, and whether that is all of them (false: more were
// pending than it follows).
func (e *Engine) PendingLazyfree() (int, bool, error) {
	l := &e.lazy
	l.mu.Lock()
	keys := make([][]byte, 0, len(l.keys))
	for k := range l.keys {
		keys = append(keys, []byte(k))
	}
	l.mu.Unlock()
	var vs [][]byte // the keys' values, nil for those reclaimed
	if len(keys) > 0 {
		tx, err := e.drv.Begin(false)
		if err != nil {
			return 0, false, err
		}
		vs, err = tx.BatchGet(keys)
		tx.Rollback()
		if err != nil {
			return 0, false, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, v := range vs {
		if v == nil {
			delete(l.keys, string(keys[i]))
		}
	}
	n, complete := len(l.keys), !l.lost
	if n == 0 {
		l.lost = false // what was not followed went with the rest, or soon will
	}
	return n, complete, nil
}
