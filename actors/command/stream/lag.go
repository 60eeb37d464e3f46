package stream

import (
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// The group counters of Redis 7.0: entries-read tracks how many entries a
// group has read in the stream's history, and lag how many it has not;
// deleted entries ("tombstones") make them estimates or unknown (-1).

// hasTombstones reports whether an entry at or after from was deleted.
func hasTombstones(s *rstream.Stream, from codec.StreamID) bool {
	m := s.Meta()
	if s.Len() == 0 || m.MaxDeletedID == (codec.StreamID{}) {
		return false
	}
	return !m.MaxDeletedID.Less(from)
}

// distanceFromFirst estimates the read counter of id (-1: unknown).
func distanceFromFirst(s *rstream.Stream, id codec.StreamID) (int64, error) {
	m := s.Meta()
	added := int64(m.EntriesAdded)
	switch {
	case added == 0:
		return 0, nil
	case s.Len() == 0 && !m.LastID.Less(id):
		return added, nil
	case id == m.LastID:
		return added, nil
	case m.LastID.Less(id):
		return -1, nil
	}
	first, ok, err := s.First(false)
	if err != nil || !ok {
		return -1, err
	}
	if m.MaxDeletedID == (codec.StreamID{}) || m.MaxDeletedID.Less(first.ID) {
		switch {
		case id.Less(first.ID):
			return added - s.Len(), nil
		case id == first.ID:
			return added - s.Len() + 1, nil
		}
	}
	return -1, nil
}

// advanceRead updates g's entries-read for a delivery of id.
func advanceRead(s *rstream.Stream, g *rstream.Group, id codec.StreamID) error {
	if g.EntriesRead >= 0 && !hasTombstones(s, id) {
		g.EntriesRead++
		return nil
	}
	if s.Meta().EntriesAdded > 0 {
		n, err := distanceFromFirst(s, id)
		if err != nil {
			return err
		}
		g.EntriesRead = n
	}
	return nil
}

// lag returns a group's lag; ok is false when it is unknown. It may be
// negative: a group created or set with an ENTRIESREAD past the entries
// added, as Redis reports it.
func lag(s *rstream.Stream, g rstream.Group) (n int64, ok bool, err error) {
	added := int64(s.Meta().EntriesAdded)
	switch {
	case added == 0:
		return 0, true, nil
	case g.EntriesRead >= 0 && !hasTombstones(s, g.LastDelivered):
		return added - g.EntriesRead, true, nil
	}
	read, err := distanceFromFirst(s, g.LastDelivered)
	if err != nil || read < 0 {
		return 0, false, err
	}
	return added - read, true, nil
}
