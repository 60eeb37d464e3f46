package store

import (
	"bytes"
	"fmt"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// ScanMeta calls fn for each live key of the selected db from user key
// start on (inclusive), in key order, until fn returns false.
func (t *Tx) ScanMeta(start []byte, fn func(key []byte, m codec.Meta) (bool, error)) error {
	return t.scanMeta(start, false, fn)
}

// scanMeta is ScanMeta; reap records the expired keys it passes for
// lazy expiry (ScanMetaReaping).
func (t *Tx) scanMeta(start []byte, reap bool, fn func(key []byte, m codec.Meta) (bool, error)) error {
	if t.err != nil {
		return t.err
	}
	from, end := codec.MetaRange(t.slot)
	from = append(from, start...)
	return t.txn.Iterate(from, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		_, key, err := codec.DecodeMetaKey(k)
		if err != nil {
			return false, err
		}
		m, _, err := codec.DecodeMeta(v)
		if err != nil {
			return false, fmt.Errorf("store: key %q: %w", key, err)
		}
		if m.Version < t.minVer {
			return true, nil
		}
		if m.Expired(t.now) {
			if reap {
				t.jr.sawExpired(int(t.db), t.slot, string(k), bytes.Clone(key), m.ExpireAt)
			}
			return true, nil
		}
		return fn(key, m)
	})
}

// ScanMetaReaping is ScanMeta recording the expired keys it passes over
// for lazy expiry (Journal.Expired), as Redis's SCAN and RANDOMKEY delete
// the expired keys they meet (KEYS and DBSIZE do not: ScanMeta).
func (t *Tx) ScanMetaReaping(start []byte, fn func(key []byte, m codec.Meta) (bool, error)) error {
	return t.scanMeta(start, true, fn)
}
