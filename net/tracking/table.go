package tracking

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Table is the tracking table and the BCAST prefixes.
type Table struct {
	mu       sync.Mutex
	keys     map[Key]map[int64]struct{}
	items    int
	prefixes map[string]map[int64]struct{}
	clients  atomic.Int64 // clients with tracking on
	nkeys    atomic.Int64 // len(keys), read without the lock
	maxKeys  atomic.Int64 // tracking-table-max-keys; 0: no limit
}

// Key is a tracked key of a namespace (package namespaces): a write in
// one namespace invalidates no other namespace's reads of the same name.
type Key struct {
	NS  uint32
	Key string
}

// DefaultMaxKeys is Redis's tracking-table-max-keys default.
const DefaultMaxKeys = 1_000_000

// New returns an empty table holding at most DefaultMaxKeys keys.
func New() *Table {
	t := &Table{keys: map[Key]map[int64]struct{}{}, prefixes: map[string]map[int64]struct{}{}}
	t.maxKeys.Store(DefaultMaxKeys)
	return t
}

// Lock locks the table (before any client).
func (t *Table) Lock() { t.mu.Lock() }

// Unlock unlocks the table.
func (t *Table) Unlock() { t.mu.Unlock() }

// SetMaxKeys sets tracking-table-max-keys (0: no limit); Excess then
// says which keys to drop.
func (t *Table) SetMaxKeys(n int64) { t.maxKeys.Store(n) }

// Idle reports whether no client tracks and no key is tracked: a write
// then has nothing to invalidate.
func (t *Table) Idle() bool { return t.clients.Load() == 0 && t.nkeys.Load() == 0 }

// ClientOnLocked counts a client that turned tracking on.
func (t *Table) ClientOnLocked() { t.clients.Add(1) }

// ClientOffLocked counts a client that turned tracking off, after its
// prefixes were removed. When none is left, the keys go too: nobody is
// left to tell.
func (t *Table) ClientOffLocked() {
	if t.clients.Add(-1) == 0 {
		t.ClearLocked()
	}
}

// AddPrefixLocked subscribes client id to the keys under prefix (BCAST).
func (t *Table) AddPrefixLocked(prefix string, id int64) {
	ids := t.prefixes[prefix]
	if ids == nil {
		ids = map[int64]struct{}{}
		t.prefixes[prefix] = ids
	}
	ids[id] = struct{}{}
}

// RemovePrefixLocked undoes AddPrefixLocked.
func (t *Table) RemovePrefixLocked(prefix string, id int64) {
	if ids := t.prefixes[prefix]; ids != nil {
		delete(ids, id)
		if len(ids) == 0 {
			delete(t.prefixes, prefix)
		}
	}
}

// RecordLocked records that client id read keys of namespace ns.
func (t *Table) RecordLocked(id int64, ns uint32, keys [][]byte) {
	for _, k := range keys {
		ids := t.keys[Key{ns, string(k)}]
		if ids == nil {
			ids = map[int64]struct{}{}
			t.keys[Key{ns, string(k)}] = ids
		}
		if _, ok := ids[id]; !ok {
			ids[id] = struct{}{}
			t.items++
		}
	}
}

// ExcessLocked returns keys to drop so that the table holds at most
// tracking-table-max-keys (any of them: Go's map order).
func (t *Table) ExcessLocked() []Key {
	max := t.maxKeys.Load()
	if max <= 0 || int64(len(t.keys)) <= max {
		return nil
	}
	out := make([]Key, 0, int64(len(t.keys))-max)
	for k := range t.keys {
		if int64(len(out)) >= int64(len(t.keys))-max {
			break
		}
		out = append(out, k)
	}
	return out
}

// HasKeysLocked reports whether any key is tracked.
func (t *Table) HasKeysLocked() bool { return len(t.keys) > 0 }

// TakeLocked removes key and returns the clients that read it (nil if
// none).
func (t *Table) TakeLocked(key Key) map[int64]struct{} {
	ids, ok := t.keys[key]
	if !ok {
		return nil
	}
	delete(t.keys, key)
	t.items -= len(ids)
	return ids
}

// ClearLocked removes every key (a flush).
func (t *Table) ClearLocked() {
	clear(t.keys)
	t.items = 0
	t.nkeys.Store(0)
}

// CountLocked publishes the number of keys for Idle; call it after
// changing the keys.
func (t *Table) CountLocked() { t.nkeys.Store(int64(len(t.keys))) }

// UnderPrefixesLocked groups keys by the BCAST prefixes they fall under
// (nil when none does).
func (t *Table) UnderPrefixesLocked(keys [][]byte) map[string][][]byte {
	var out map[string][][]byte
	for _, k := range keys {
		for p := range t.prefixes {
			if strings.HasPrefix(string(k), p) {
				if out == nil {
					out = map[string][][]byte{}
				}
				out[p] = append(out[p], k)
			}
		}
	}
	return out
}

// PrefixClientsLocked returns the clients subscribed to prefix.
func (t *Table) PrefixClientsLocked(prefix string) map[int64]struct{} { return t.prefixes[prefix] }

// Stats returns INFO's figures: tracking clients, keys, items (key and
// client pairs) and prefixes.
func (t *Table) Stats() (clients, keys, items, prefixes int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(t.clients.Load()), len(t.keys), t.items, len(t.prefixes)
}
