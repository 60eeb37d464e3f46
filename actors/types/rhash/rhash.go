// Package rhash is the hash type's operations on a store transaction: one
// sub-key per field (value: the field's value) under the key's version, the
// exact field count in the meta.
package rhash

import (
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Open returns key's hash (nil if missing and not create).
func Open(tx *store.Tx, key []byte, create bool) (*store.Coll, error) {
	return tx.Open(key, codec.TypeHash, create)
}

// SetField writes one field and reports whether it is new.
func SetField(h *store.Coll, f, v []byte) (bool, error) {
	exists, err := h.Has(f)
	if err != nil {
		return false, err
	}
	return !exists, h.Put(f, v)
}
