package store

import "github.com/rekv/rekv/codec"

// Copy copies src (in the selected database) to dst in database dstDB,
// keeping its expiry (COPY). It reports false, changing nothing, when src
// does not exist or dst exists and replace is not set. A collection or
// chunked string is copied member by member under a new version. The
// destination is announced "new" even when it replaced a key, as Redis.
func (t *Tx) Copy(src []byte, dstDB int, dst []byte, replace bool) (bool, error) {
	_, s, err := t.raw(src, true)
	if err != nil || !t.live(s) {
		return false, err
	}
	srcDB, srcSlot := t.db, t.slot
	defer t.Use(int(srcDB))
	t.Use(dstDB)
	dmk, d, err := t.raw(dst, false)
	if err != nil {
		return false, err
	}
	if t.live(d) && !replace {
		return false, nil
	}
	m, err := t.copyRecord(s, srcSlot, src, dst)
	if err != nil {
		return false, err
	}
	if t.live(d) {
		t.AddNote(NoteNewClass, "new", dst)
	}
	t.signalWhole(dst, m)
	return true, t.write(dst, dmk, d, m, s.payload)
}

// Move moves key from the selected database to dstDB, keeping its expiry
// (MOVE). It reports false, changing nothing, when key does not exist or
// dstDB already has it. The source is removed first, so its events come
// first.
func (t *Tx) Move(key []byte, dstDB int) (bool, error) {
	smk, s, err := t.raw(key, true)
	if err != nil || !t.live(s) {
		return false, err
	}
	srcDB, srcSlot := t.db, t.slot
	defer t.Use(int(srcDB))
	t.Use(dstDB)
	dmk, d, err := t.raw(key, false)
	if err != nil || t.live(d) {
		return false, err
	}
	m, err := t.copyRecord(s, srcSlot, key, key)
	if err != nil {
		return false, err
	}
	t.Use(int(srcDB))
	if _, err := t.del(key, smk, s); err != nil {
		return false, err
	}
	t.Use(dstDB)
	t.signalWhole(key, m)
	return true, t.write(key, dmk, d, m, s.payload)
}

// copyRecord returns the meta of a copy of s (key src stored under
// srcSlot) as key dst of the selected database, copying its sub-keys if it
// has any.
func (t *Tx) copyRecord(s record, srcSlot codec.Slot, src, dst []byte) (codec.Meta, error) {
	if s.meta.HasSubKeys() {
		return t.copyVersion(s, srcSlot, src, t.slot, dst)
	}
	m := s.meta
	v, err := t.nextVersion()
	m.Version = v
	return m, err
}
