package store

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
	_, r, err := t.raw(key, false)
	if err != nil || !t.stored(r) {
		return false, err
	}
	return !r.meta.Expired(t.now), nil
}

// stored reports whether r is a key this transaction can see, expired
// or not: it exists and no flush marker hides it.
func (t *Tx) stored(r record) bool { return r.exists && r.meta.Version >= t.minVer }
