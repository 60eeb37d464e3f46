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
func Set(h *store.Coll, pairs [][]byte, lim codec.ListpackLimits) (added int64, err error) {
	return set(h, pairs, false, lim)
}

// SetKeepTTL is Set keeping the TTLs of the fields it overwrites (HSETEX
// KEEPTTL).
func SetKeepTTL(h *store.Coll, pairs [][]byte, lim codec.ListpackLimits) (added int64, err error) {
	return set(h, pairs, true, lim)
}

// converts reports whether writing pairs (field, value...) to h, adding
// added fields, converts it (see codec.ListpackLimits: a field or value counts as an entry).
func converts(h *store.Coll, pairs [][]byte, added int64, lim codec.ListpackLimits) bool {
	if h.Converted() {
		return false
	}
	if h.Size()+added > lim.Entries {
		return true
	}
	for _, a := range pairs {
		if int64(len(a)) > lim.Value {
			return true
		}
	}
	return false
}

func set(h *store.Coll, pairs [][]byte, keepTTL bool, lim codec.ListpackLimits) (added int64, err error) {
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
	return added, grow(h, pairs, added, lim)
}

// grow counts added new fields in h's size after pairs were written,
// marking it converted when they convert it; its meta is written when
// either changes.
func grow(h *store.Coll, pairs [][]byte, added int64, lim codec.ListpackLimits) error {
	convert := converts(h, pairs, added, lim)
	if convert {
		h.Convert()
	}
	if added == 0 && !convert {
		return nil
	}
	return h.Grow(added)
}

// Write writes one field whose existence the caller just read (existed),
// counting it when it is new: a read-modify-write (HINCRBY) saves the
// second lookup Put would make.
func Write(h *store.Coll, f, v []byte, existed bool, lim codec.ListpackLimits) error {
	if err := h.Put(f, v); err != nil {
		return err
	}
	added := int64(1)
	if existed {
		added = 0
	}
	return grow(h, [][]byte{f, v}, added, lim)
}

// SetNX writes the field only if the hash lacks it, and reports whether
// it did.
func SetNX(h *store.Coll, f, v []byte, lim codec.ListpackLimits) (bool, error) {
	if exists, err := h.Has(f); err != nil || exists {
		return false, err
	}
	if err := h.Put(f, v); err != nil {
		return false, err
	}
	return true, grow(h, [][]byte{f, v}, 1, lim)
}

// Delete removes fields and returns how many existed; a hash left empty
// is deleted.
func Delete(h *store.Coll, fields [][]byte) (int64, error) { return h.RemoveFields(fields) }
