package store

import (
	"bytes"
	"errors"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Strings up to codec.StringInlineMax bytes live in their meta value; longer
// ones are chunked (codec.EncodingChunked): the meta holds the length and
// chunk i holds bytes [i*StringChunk, (i+1)*StringChunk) under a sub-key of
// the version. A chunk may be shorter than StringChunk or missing: the bytes
// it lacks are zeros, so a sparse bitmap (SETBIT at offset 2^32-1) costs one
// chunk. Range commands read and write only the chunks they cover.

const chunk = codec.StringChunk

// zeroChunk is what a missing chunk reads as. Never modified.
var zeroChunk = make([]byte, chunk)

// Str is a string key open for range access in a Tx. A missing key is an
// empty string that comes into existence with its first write.
type Str struct {
	t      *Tx
	key    []byte
	mk     string
	old    record // the stored record (possibly expired)
	meta   codec.Meta
	exists bool   // the key is live
	inline []byte // the value of an inline string; never modified
}

// OpenString opens key's string; another type is WRONGTYPE.
func (t *Tx) OpenString(key []byte) (*Str, error) {
	mk, r, err := t.raw(key, false)
	if err != nil {
		return nil, err
	}
	s := &Str{t: t, key: key, mk: mk, old: r}
	if !t.live(r) {
		return s, nil
	}
	if r.meta.Type != codec.TypeString {
		return nil, rerr.ErrWrongType
	}
	if !r.meta.Chunked {
		if _, r, err = t.raw(key, true); err != nil {
			return nil, err
		}
		s.inline = r.payload
	}
	s.meta, s.exists = r.meta, true
	return s, nil
}

// Exists reports whether the key exists.
func (s *Str) Exists() bool { return s.exists }

// Len returns the string's length.
func (s *Str) Len() int64 {
	if s.meta.Chunked {
		return int64(s.meta.Size)
	}
	return int64(len(s.inline))
}

// Raw reports whether the string is raw: modified in place or chunked
// (OBJECT ENCODING).
func (s *Str) Raw() bool { return s.meta.Converted || s.meta.Chunked }

// Chunked reports whether the string is stored in chunks.
func (s *Str) Chunked() bool { return s.meta.Chunked }

// Each calls fn with consecutive pieces of the bytes [off, off+n) (clamped
// to the string), in order, until fn returns false. A piece is valid only
// during the call and must not be modified; zero is set for a piece of
// zeros nothing stored (a missing chunk, or past a short chunk's end), so
// scans can skip it. Reading a huge range this way holds one chunk at a
// time.
func (s *Str) Each(off, n int64, fn func(pos int64, b []byte, zero bool) bool) error {
	end := min(off+n, s.Len())
	if off < 0 || off >= end {
		return nil
	}
	if !s.meta.Chunked {
		fn(off, s.inline[off:end], false)
		return nil
	}
	prefix := codec.SubKeyPrefix(s.t.slot, s.key, s.meta.Version)
	first, last := uint64(off/chunk), uint64((end-1)/chunk)
	pos := off // the next byte to hand out
	stopped := false
	// emit hands out [pos, upto) from data, which holds the bytes from
	// base on (shorter: zeros follow).
	emit := func(base int64, data []byte, upto int64) bool {
		for pos < upto {
			if i := pos - base; i < int64(len(data)) {
				j := min(upto-base, int64(len(data)))
				if !fn(pos, data[i:j], false) {
					return false
				}
				pos = base + j
				continue
			}
			z := min(upto-pos, chunk)
			if !fn(pos, zeroChunk[:z], true) {
				return false
			}
			pos += z
		}
		return true
	}
	start := append(append([]byte{}, prefix...), codec.ChunkField(first)...)
	if first == last {
		// One chunk: a point read, cheaper than an iterator.
		v, err := s.t.txn.Get(start)
		switch {
		case errors.Is(err, drivers.ErrNotFound):
			v = nil
		case err != nil:
			return err
		}
		base := int64(first) * chunk
		emit(base, v, end)
		return nil
	}
	stop := append(append([]byte{}, prefix...), codec.ChunkField(last+1)...)
	err := s.t.txn.Iterate(start, stop, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		i, err := codec.DecodeChunkField(k[len(prefix):])
		if err != nil {
			return false, err
		}
		base := int64(i) * chunk
		if !emit(pos, nil, base) || !emit(base, v, min(base+chunk, end)) {
			stopped = true
			return false, nil
		}
		return true, nil
	})
	if err != nil || stopped {
		return err
	}
	emit(pos, nil, end)
	return nil
}

// Read returns a copy of the bytes [off, off+n), clamped to the string.
func (s *Str) Read(off, n int64) ([]byte, error) {
	end := min(off+n, s.Len())
	if off < 0 || off >= end {
		return nil, nil
	}
	out := make([]byte, 0, end-off)
	err := s.Each(off, n, func(_ int64, b []byte, _ bool) bool {
		out = append(out, b...)
		return true
	})
	return out, err
}

// Value returns the whole string.
func (s *Str) Value() ([]byte, error) {
	if !s.meta.Chunked {
		return s.inline, nil
	}
	return s.Read(0, s.Len())
}

// Write stores data at offset off, growing the string with zero bytes as
// needed, and keeps the key's expiry. A missing key is created. The
// string is then raw (codec.EncodingConverted), as one Redis modified in
// place. The transaction may keep data until it ends: callers must not
// modify it.
func (s *Str) Write(off int64, data []byte) error {
	size := max(s.Len(), off+int64(len(data)))
	if !s.meta.Chunked && size <= codec.StringInlineMax {
		v := make([]byte, size)
		copy(v, s.inline)
		copy(v[off:], data)
		return s.setInline(v)
	}
	t := s.t
	m := s.meta
	fresh := false
	if !m.Chunked {
		// Growing past the inline limit (or created big): a fresh version,
		// which owns no chunk yet. The inline bytes become its first chunks.
		v, err := t.nextVersion()
		if err != nil {
			return err
		}
		m = codec.Meta{Type: codec.TypeString, ExpireAt: s.meta.ExpireAt, Version: v, Chunked: true}
		fresh = true
	}
	m.Size = uint64(size)
	w := &chunkWriter{t: t, prefix: codec.SubKeyPrefix(t.slot, s.key, m.Version), fresh: fresh}
	if fresh && len(s.inline) > 0 {
		if err := w.write(0, s.inline); err != nil {
			return err
		}
		w.fresh = false
	}
	if err := w.write(off, data); err != nil {
		return err
	}
	if err := t.write(s.key, s.mk, s.old, m, nil); err != nil {
		return err
	}
	s.meta, s.inline, s.exists = m, nil, true
	_, s.old, _ = t.raw(s.key, false)
	return nil
}

func (s *Str) setInline(v []byte) error {
	m := codec.Meta{Type: codec.TypeString, ExpireAt: s.meta.ExpireAt, Version: s.meta.Version, Converted: true}
	if !s.exists {
		var err error
		if m.Version, err = s.t.nextVersion(); err != nil {
			return err
		}
	}
	if err := s.t.write(s.key, s.mk, s.old, m, v); err != nil {
		return err
	}
	s.meta, s.inline, s.exists = m, v, true
	_, s.old, _ = s.t.raw(s.key, false)
	return nil
}

// chunkWriter writes byte ranges into the chunks of one version. With fresh
// set the version has no chunk stored yet (nor written earlier by this
// writer), so no chunk needs reading or deleting.
type chunkWriter struct {
	t      *Tx
	prefix []byte
	fresh  bool
}

func (w *chunkWriter) key(i int64) []byte {
	return append(append(make([]byte, 0, len(w.prefix)+8), w.prefix...), codec.ChunkField(uint64(i))...)
}

// write stores data at off. Each chunk is written whole; an all-zero
// chunk is not stored (or is deleted).
func (w *chunkWriter) write(off int64, data []byte) error {
	for len(data) > 0 {
		i := off / chunk
		base := i * chunk
		n := min(int64(len(data)), base+chunk-off)
		k := w.key(i)
		var cur []byte
		if !w.fresh {
			v, err := w.t.txn.Get(k)
			switch {
			case err == nil:
				cur = v
			case !errors.Is(err, drivers.ErrNotFound):
				return err
			}
		}
		var next []byte
		if off == base && len(cur) <= int(n) {
			next = data[:n] // covers every stored byte of the chunk
		} else {
			next = make([]byte, max(int64(len(cur)), off-base+n))
			copy(next, cur)
			copy(next[off-base:], data[:n])
		}
		next = trimZeros(next)
		var err error
		switch {
		case len(next) > 0:
			// Kept until commit: a fresh buffer, or the caller's data,
			// which Write's callers do not modify (see Str.Write).
			err = drivers.SetOwned(w.t.txn, k, next)
		case len(cur) > 0:
			err = w.t.txn.Delete(k)
		}
		if err != nil {
			return err
		}
		off += n
		data = data[n:]
	}
	return nil
}

// trimZeros drops trailing zero bytes: missing bytes read as zeros.
func trimZeros(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		if n >= 8 && bytes.Equal(b[n-8:n], zeroChunk[:8]) {
			n -= 8
			continue
		}
		n--
	}
	return b[:n]
}

// setChunked stores val (longer than the inline limit) at key under a fresh
// version with expiry expireAt, replacing old.
func (t *Tx) setChunked(key []byte, mk string, old record, val []byte, expireAt int64) error {
	v, err := t.nextVersion()
	if err != nil {
		return err
	}
	m := codec.Meta{Type: codec.TypeString, ExpireAt: expireAt, Version: v, Chunked: true, Size: uint64(len(val))}
	if pw, ok := t.preWriter(val); ok {
		if err := t.preWrite(pw, key, v, val); err != nil {
			return err
		}
		return t.write(key, mk, old, m, nil)
	}
	w := &chunkWriter{t: t, prefix: codec.SubKeyPrefix(t.slot, key, v), fresh: true}
	if err := w.write(0, val); err != nil {
		return err
	}
	return t.write(key, mk, old, m, nil)
}

// PeekString is GetString without reading a chunked (big) string: for
// one it returns its meta and a nil val, for the caller to read piece by
// piece (OpenString). One look-up either way.
func (t *Tx) PeekString(key []byte) (val []byte, m codec.Meta, ok bool, err error) {
	_, r, err := t.raw(key, true)
	if err != nil || !t.live(r) {
		return nil, codec.Meta{}, false, err
	}
	if r.meta.Type != codec.TypeString {
		return nil, codec.Meta{}, false, rerr.ErrWrongType
	}
	if r.meta.Chunked {
		return nil, r.meta, true, nil
	}
	return r.payload, r.meta, true, nil
}

// GetString returns the string at key; ok is false if the key does not
// exist; the error is rerr.ErrWrongType for another type.
func (t *Tx) GetString(key []byte) (val []byte, ok bool, err error) {
	v, m, ok, err := t.PeekString(key)
	if err != nil || !ok || !m.Chunked {
		return v, ok, err
	}
	s := &Str{t: t, key: key, meta: m, exists: true}
	v, err = s.Value()
	return v, err == nil, err
}

// SetString stores val at key with expiry expireAt (0 for none), replacing
// whatever was there. The transaction may keep val until it ends: callers
// must not modify it.
func (t *Tx) SetString(key, val []byte, expireAt int64) error {
	mk, old, err := t.raw(key, false)
	if err != nil {
		return err
	}
	return t.setString(key, mk, old, val, expireAt)
}

// setString is SetString over key's meta key mk and record old, as raw
// returned them.
func (t *Tx) setString(key []byte, mk string, old record, val []byte, expireAt int64) error {
	var err error
	if expireAt != 0 && expireAt <= t.now {
		// Already expired, as Redis does for SET with a past EXAT: the key
		// ends up deleted.
		_, err := t.del(key, mk, old)
		return err
	}
	if len(val) > codec.StringInlineMax {
		return t.setChunked(key, mk, old, val, expireAt)
	}
	m := codec.Meta{Type: codec.TypeString, ExpireAt: expireAt}
	if t.live(old) && old.meta.Type == codec.TypeString && !old.meta.Chunked {
		m.Version = old.meta.Version
	} else if m.Version, err = t.nextVersion(); err != nil {
		return err
	}
	return t.write(key, mk, old, m, val)
}

// UpdateStringKeepTTL replaces the string at key by what update makes of
// it, keeping the expiry of a live key: update gets the current value
// (ok false when the key is missing; it must not modify cur) and returns
// the new one, which the transaction may keep until it ends, or an error,
// which is returned with nothing written. GetString then
// SetStringKeepTTL in one look-up of the key (INCR, INCRBYFLOAT):
// rerr.ErrWrongType for another type.
func (t *Tx) UpdateStringKeepTTL(key []byte, update func(cur []byte, ok bool) ([]byte, error)) error {
	mk, old, err := t.raw(key, true)
	if err != nil {
		return err
	}
	var cur []byte
	ok := t.live(old)
	if ok {
		if old.meta.Type != codec.TypeString {
			return rerr.ErrWrongType
		}
		cur = old.payload
		if old.meta.Chunked {
			s := &Str{t: t, key: key, meta: old.meta, exists: true}
			if cur, err = s.Value(); err != nil {
				return err
			}
		}
	}
	val, err := update(cur, ok)
	if err != nil {
		return err
	}
	var expireAt int64
	if ok {
		expireAt = old.meta.ExpireAt
	}
	return t.setString(key, mk, old, val, expireAt)
}

// SetStringKeepTTL stores val at key, keeping the expiry of a live key.
func (t *Tx) SetStringKeepTTL(key, val []byte) error {
	mk, old, err := t.raw(key, false)
	if err != nil {
		return err
	}
	var expireAt int64
	if t.live(old) {
		expireAt = old.meta.ExpireAt
	}
	return t.setString(key, mk, old, val, expireAt)
}
