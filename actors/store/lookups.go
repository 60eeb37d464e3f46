package store

import (
	"bytes"

	"github.com/rekv/rekv/codec"
)

// Look-ups that do not queue an expired key's deletion (lazy expiry),
// for the commands that must not: DEBUG OBJECT, the keyspace_hits count.

// ExpiredAt returns when key expired, ok true, if it is still stored
// though expired (active expiry has not removed it yet); Redis's DEBUG
// OBJECT still sees such a key.
func (t *Tx) ExpiredAt(key []byte) (at int64, ok bool, err error) {
	_, r, err := t.raw(key, false)
	if err != nil || !t.stored(r) || !r.meta.Expired(t.now) {
		return 0, false, err
	}
	return r.meta.ExpireAt, true, nil
}

// Found reports whether key exists, as Exists, without queueing an
// expired key's deletion: for counting a command's look-ups after it
// ran (keyspace_hits), which must not delete what the command did not.
func (t *Tx) Found(key []byte) (bool, error) {
	var r record
	if m := &t.found; m.valid && m.puts == t.seen.puts && m.slot == t.slot && t.err == nil && bytes.Equal(m.key, key) {
		r = record{exists: m.exists, meta: codec.Meta{Version: m.version, ExpireAt: m.expireAt}}
	} else {
		var err error
		if _, r, err = t.raw(key, false); err != nil {
			return false, err
		}
	}
	return t.stored(r) && !r.meta.Expired(t.now), nil
}

// foundMemo is what the last look-up (raw) found, for Found: a command's
// keyspace hit or miss is counted by looking its keys up again once it
// ran, and that second look-up of a GET's key cost 4% of GET -P 16. It
// holds while no record was put in the transaction since (seen.puts) and
// the same database is in use; Found judges the key against the
// transaction's flush marker and clock as they are when it asks.
type foundMemo struct {
	valid    bool
	key      []byte // a copy of the key looked up: in buf when it fits
	buf      [48]byte
	slot     codec.Slot
	puts     uint64
	exists   bool
	version  uint64
	expireAt int64
}

// remember makes r, key's record, what Found answers from.
func (m *foundMemo) remember(t *Tx, key []byte, r record) {
	m.key = appendKeyCopy(m.key, m.buf[:0], key)
	m.valid, m.slot, m.puts = true, t.slot, t.seen.puts
	m.exists, m.version, m.expireAt = r.exists, r.meta.Version, r.meta.ExpireAt
}

// appendKeyCopy returns a copy of key in dst's memory when it has room,
// else in buf's (a transaction's own array: no allocation for short
// keys), else in a new one that later copies reuse.
func appendKeyCopy(dst, buf, key []byte) []byte {
	if cap(dst) < cap(buf) {
		dst = buf
	}
	return append(dst[:0], key...)
}

// stored reports whether r is a key this transaction can see, expired
// or not: it exists and no flush marker hides it.
func (t *Tx) stored(r record) bool { return r.exists && r.meta.Version >= t.minVer }
