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

// Add appends an entry, in the tail node unless lim says it is full;
// id must be greater than the last ID (callers check, with Redis's
// errors).
func (s *Stream) Add(id codec.StreamID, fields [][]byte, lim NodeLimits) error {
	if err := s.c.Put(codec.StreamEntryField(id), codec.AppendStreamFields(nil, fields)); err != nil {
		return err
	}
	m := s.c.Stream()
	if err := s.appendToNode(&m, id, fields, lim); err != nil {
		return err
	}
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
// existed; the largest deleted ID is kept in the meta. Each counts as
// deleted in its node, and a node left with no live entry goes (as
// Redis's XDEL removes it).
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
		nd, ok, err := s.nodeOf(m, id)
		if err != nil {
			return 0, err
		}
		if ok {
			nd.Live -= min(nd.Live, 1)
			nd.Deleted++
			if err := s.setNode(&m, nd, nd.Live == 0); err != nil {
				return 0, err
			}
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

// Create makes an empty stream exist (XADD with MAXLEN 0, XGROUP CREATE
// MKSTREAM).
func (s *Stream) Create() error { return s.c.SetStream(s.c.Stream(), s.Len()) }

// SetMeta sets the last ID, largest deleted ID and entries added (XSETID,
// RESTORE); the tail node stays.
func (s *Stream) SetMeta(m codec.StreamMeta) error {
	m.Tail = s.c.Stream().Tail
	return s.c.SetStream(m, s.Len())
}

// Note records a keyspace event for the stream's key.
func (s *Stream) Note(class uint16, event string) { s.c.Note(class, event) }
