package rstream

import (
	"bytes"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Stream is a stream key open in a transaction.
type Stream struct{ c *store.Coll }

// Entry is one stream entry.
type Entry struct {
	ID     codec.StreamID
	Fields [][]byte // field, value, field, value...
}

// MaxID is the largest ID, "+".
var MaxID = codec.StreamID{Ms: math.MaxUint64, Seq: math.MaxUint64}

// Open returns key's stream: nil if missing (unless create), WRONGTYPE if
// another type.
func Open(tx *store.Tx, key []byte, create bool) (*Stream, error) {
	c, err := tx.Open(key, codec.TypeStream, create)
	if err != nil || c == nil {
		return nil, err
	}
	return &Stream{c}, nil
}

// Len returns the number of entries.
func (s *Stream) Len() int64 { return s.c.Size() }

// Meta returns the last ID, largest deleted ID and entries added.
func (s *Stream) Meta() codec.StreamMeta { return s.c.Stream() }

// Add appends an entry; id must be greater than the last ID (callers
// check, with Redis's errors).
func (s *Stream) Add(id codec.StreamID, fields [][]byte) error {
	if err := s.c.Put(codec.StreamEntryField(id), codec.AppendStreamFields(nil, fields)); err != nil {
		return err
	}
	m := s.c.Stream()
	m.LastID = id
	m.EntriesAdded++
	s.c.Signal() // clients blocked in XREAD on this key are served after the commit
	return s.c.SetStream(m, s.Len()+1)
}

// Range returns the entries with start <= ID <= end in ID order (reverse
// with rev), at most count (count <= 0: all).
func (s *Stream) Range(start, end codec.StreamID, rev bool, count int64) ([]Entry, error) {
	if end.Less(start) {
		return nil, nil
	}
	var out []Entry
	from := codec.StreamEntryField(start)
	if h := s.c.Head(); h != nil && bytes.Compare(from, h) < 0 {
		from = h // nothing lives before it: skip what trims deleted
	}
	to := nextField(codec.StreamEntryField(end))
	limit := 0
	if count > 0 && count < math.MaxInt32 {
		limit = int(count)
	}
	err := s.c.Scan(from, to, rev, limit, func(f, v []byte) (bool, error) {
		id, err := codec.DecodeStreamEntryField(f)
		if err != nil {
			return false, err
		}
		fields, err := codec.DecodeStreamFields(v)
		if err != nil {
			return false, err
		}
		for i := range fields {
			fields[i] = bytes.Clone(fields[i])
		}
		out = append(out, Entry{ID: id, Fields: fields})
		return count <= 0 || int64(len(out)) < count, nil
	})
	return out, err
}

// nextField returns the smallest field after f (f with a 0 byte added).
func nextField(f []byte) []byte { return append(f, 0) }

// First returns the first (or last) entry, if any.
func (s *Stream) First(last bool) (Entry, bool, error) {
	es, err := s.Range(codec.StreamID{}, MaxID, last, 1)
	if err != nil || len(es) == 0 {
		return Entry{}, false, err
	}
	return es[0], true, nil
}

// Delete removes the entries with the given IDs and returns how many
// existed; the largest deleted ID is kept in the meta.
func (s *Stream) Delete(ids []codec.StreamID) (int64, error) {
	var n int64
	m := s.c.Stream()
	for _, id := range ids {
		f := codec.StreamEntryField(id)
		ok, err := s.c.Has(f)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if err := s.c.Remove(f); err != nil {
			return 0, err
		}
		if m.MaxDeletedID.Less(id) {
			m.MaxDeletedID = id
		}
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return n, s.c.SetStream(m, s.Len()-n)
}

// TrimBefore deletes the oldest entries while keep(len, id) says to drop
// them (MAXLEN: len > maxlen; MINID: id < minid), at most limit of them
// (limit <= 0: no limit), and returns how many it deleted.
func (s *Stream) TrimBefore(drop func(length int64, id codec.StreamID) bool, limit int64) (int64, error) {
	var ids []codec.StreamID
	length := s.Len()
	from := s.c.Head() // past the entries earlier trims deleted
	if from == nil {
		from = codec.StreamEntryField(codec.StreamID{})
	}
	first := true
	err := s.c.Scan(from, []byte{codec.StreamTagGroup}, false, 0, func(f, _ []byte) (bool, error) {
		if first {
			s.c.SetHead(f) // live now, so no later append or rollback hides an entry before it
			first = false
		}
		id, err := codec.DecodeStreamEntryField(f)
		if err != nil {
			return false, err
		}
		if !drop(length-int64(len(ids)), id) || limit > 0 && int64(len(ids)) >= limit {
			return false, nil
		}
		ids = append(ids, id)
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	return int64(len(ids)), s.TrimIDs(ids)
}

// TrimIDs deletes entries the caller read from the stream's start (they
// exist), as trimming does: the largest deleted ID stays as it was, as in
// Redis 7.0.
func (s *Stream) TrimIDs(ids []codec.StreamID) error {
	if len(ids) == 0 {
		return nil
	}
	for _, id := range ids {
		if err := s.c.Remove(codec.StreamEntryField(id)); err != nil {
			return err
		}
	}
	return s.c.SetStream(s.c.Stream(), s.Len()-int64(len(ids)))
}

// Create makes an empty stream exist (XADD with MAXLEN 0, XGROUP CREATE
// MKSTREAM).
func (s *Stream) Create() error { return s.c.SetStream(s.c.Stream(), s.Len()) }

// SetMeta sets the last ID, largest deleted ID and entries added (XSETID).
func (s *Stream) SetMeta(m codec.StreamMeta) error { return s.c.SetStream(m, s.Len()) }

// Note records a keyspace event for the stream's key.
func (s *Stream) Note(class uint16, event string) { s.c.Note(class, event) }
