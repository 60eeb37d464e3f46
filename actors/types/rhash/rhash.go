package rhash

import (
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Open returns key's hash (nil if missing and not create).
func Open(tx *store.Tx, key []byte, create bool) (*store.Coll, error) {
	return tx.Open(key, codec.TypeHash, create)
}

// Set writes field-value pairs (pairs: field, value, field, value...) and
// returns how many fields were new, counted in the hash's size. A field
// written loses its TTL, as in Redis.
func Set(h *store.Coll, pairs [][]byte) (added int64, err error) {
	return set(h, pairs, false)
}

// SetKeepTTL is Set keeping the TTLs of the fields it overwrites (HSETEX
// KEEPTTL).
func SetKeepTTL(h *store.Coll, pairs [][]byte) (added int64, err error) {
	return set(h, pairs, true)
}

func set(h *store.Coll, pairs [][]byte, keepTTL bool) (added int64, err error) {
	for i := 0; i+1 < len(pairs); i += 2 {
		exists, err := h.Has(pairs[i])
		if err != nil {
			return 0, err
		}
		if exists && !keepTTL && h.HasFieldTTLs() {
			if _, err := h.Persist(pairs[i]); err != nil {
				return 0, err
			}
		}
		if err := h.Put(pairs[i], pairs[i+1]); err != nil {
			return 0, err
		}
		if !exists {
			added++
		}
	}
	if added > 0 {
		return added, h.Grow(added)
	}
	return 0, nil
}

// Write writes one field whose existence the caller just read (existed),
// counting it when it is new: a read-modify-write (HINCRBY) saves the
// second lookup Put would make.
func Write(h *store.Coll, f, v []byte, existed bool) error {
	if err := h.Put(f, v); err != nil {
		return err
	}
	if existed {
		return nil
	}
	return h.Grow(1)
}

// SetNX writes the field only if the hash lacks it, and reports whether
// it did.
func SetNX(h *store.Coll, f, v []byte) (bool, error) {
	if exists, err := h.Has(f); err != nil || exists {
		return false, err
	}
	if err := h.Put(f, v); err != nil {
		return false, err
	}
	return true, h.Grow(1)
}

// Delete removes fields and returns how many existed; a hash left empty
// is deleted.
func Delete(h *store.Coll, fields [][]byte) (int64, error) { return h.RemoveFields(fields) }
