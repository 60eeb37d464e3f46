package store

import (
	"errors"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// System returns the value of a system record (codec's 's' family), nil
// when missing.
func (vw Records) System(key []byte) ([]byte, error) {
	t := vw.t
	v, err := t.txn.Get(key)
	if errors.Is(err, drivers.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// SetSystem writes a system record; DeleteSystem removes one.
func (vw Records) SetSystem(key, val []byte) error {
	t := vw.t
	t.wrote()
	return t.txn.Set(key, val)
}

// DeleteSystem removes a system record.
func (vw Records) DeleteSystem(key []byte) error {
	t := vw.t
	t.wrote()
	return t.txn.Delete(key)
}

// ScanSystem calls fn for every system record under prefix, in key order.
func (vw Records) ScanSystem(prefix []byte, fn func(key, val []byte) (bool, error)) error {
	t := vw.t
	return t.txn.Iterate(prefix, codec.PrefixEnd(prefix), drivers.IterOptions{}, fn)
}
