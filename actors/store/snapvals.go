package store

import (
	"sync"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// SnapshotValues are stored values read at one snapshot, shared by the
// read-only transactions reading there (Env.Values): a burst of snapshot
// reads fetches every key it will look up in one batch (Fetch), then each
// read finds its keys here instead of making a round trip of its own.
// Sharing is safe because a snapshot never changes: any transaction at
// the same stamp would read the same values. Safe for concurrent use.
type SnapshotValues struct {
	mu sync.RWMutex
	m  map[string]snapValue
}

type snapValue struct {
	v     []byte
	found bool
}

// ReadKeys appends to into the stored keys a read of keys (Redis keys) in
// database db looks up first: the database's record and the keys' metas,
// under the slot db is held at (a database swapped since by another node
// reads other keys, which are then not found here and read as usual).
func (f *FlushMarkers) ReadKeys(db int, keys [][]byte, into [][]byte) [][]byte {
	if db < 0 || db > int(codec.MaxSlot) {
		return into
	}
	slot := f.Held(db).Slot
	into = append(into, codec.FlushMarkerKey(codec.Slot(db)))
	for _, k := range keys {
		into = append(into, codec.MetaKey(slot, k))
	}
	return into
}

// Fetch reads keys at snapshot at in one batch and keeps their values.
func (s *SnapshotValues) Fetch(sn drivers.Snapshotter, at uint64, keys [][]byte) error {
	keys = dedupe(keys)
	tx, err := sn.BeginAt(at)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	vals, err := tx.BatchGet(keys)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string]snapValue, len(keys))
	}
	for i, k := range keys {
		s.m[string(k)] = snapValue{v: vals[i], found: vals[i] != nil}
	}
	return nil
}

// dedupe returns keys without repeats (a burst of reads of one hot key).
func dedupe(keys [][]byte) [][]byte {
	seen := make(map[string]struct{}, len(keys))
	out := keys[:0:0]
	for _, k := range keys {
		if _, ok := seen[string(k)]; !ok {
			seen[string(k)] = struct{}{}
			out = append(out, k)
		}
	}
	return out
}

// get returns key's value (a copy: readers may keep or change it) and
// whether it was fetched.
func (s *SnapshotValues) get(key []byte) (v []byte, found, ok bool) {
	s.mu.RLock()
	sv, ok := s.m[string(key)]
	s.mu.RUnlock()
	if !ok || !sv.found {
		return nil, false, ok
	}
	return append(make([]byte, 0, len(sv.v)), sv.v...), true, true
}

// valuesTxn is a read-only driver transaction at a snapshot that looks up
// the values fetched there before going to the store; it begins its own
// driver transaction only when it needs one (a read it does not hold).
type valuesTxn struct {
	vals *SnapshotValues
	sn   drivers.Snapshotter // begins tx, at at, on the first read not in vals
	at   uint64
	tx   drivers.Txn
}

func (t *valuesTxn) txn() (drivers.Txn, error) {
	if t.tx == nil {
		tx, err := t.sn.BeginAt(t.at)
		if err != nil {
			return nil, err
		}
		t.tx = tx
	}
	return t.tx, nil
}

func (t *valuesTxn) Get(key []byte) ([]byte, error) {
	if v, found, ok := t.vals.get(key); ok {
		if !found {
			return nil, drivers.ErrNotFound
		}
		return v, nil
	}
	tx, err := t.txn()
	if err != nil {
		return nil, err
	}
	return tx.Get(key)
}

func (t *valuesTxn) BatchGet(keys [][]byte) ([][]byte, error) {
	out := make([][]byte, len(keys))
	var miss [][]byte
	var at []int
	for i, k := range keys {
		v, _, ok := t.vals.get(k)
		if !ok {
			miss, at = append(miss, k), append(at, i)
			continue
		}
		out[i] = v
	}
	if len(miss) == 0 {
		return out, nil
	}
	tx, err := t.txn()
	if err != nil {
		return nil, err
	}
	vals, err := tx.BatchGet(miss)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		out[i] = vals[j]
	}
	return out, nil
}

func (t *valuesTxn) Set(key, value []byte) error {
	tx, err := t.txn()
	if err != nil {
		return err
	}
	return tx.Set(key, value)
}

func (t *valuesTxn) Delete(key []byte) error {
	tx, err := t.txn()
	if err != nil {
		return err
	}
	return tx.Delete(key)
}

func (t *valuesTxn) Iterate(start, end []byte, opts drivers.IterOptions, fn func(key, value []byte) (bool, error)) error {
	tx, err := t.txn()
	if err != nil {
		return err
	}
	return tx.Iterate(start, end, opts, fn)
}

func (t *valuesTxn) Commit() error {
	if t.tx == nil {
		return nil
	}
	return t.tx.Commit()
}

func (t *valuesTxn) Rollback() {
	if t.tx != nil {
		t.tx.Rollback()
	}
}
