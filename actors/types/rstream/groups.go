package rstream

import (
	"bytes"
	"encoding/binary"

	"github.com/rekv/rekv/codec"
)

// Consumer groups live under the stream's version next to its entries,
// each family under its own tag byte (codec.StreamTag*):
//
//	group      tag 1 | name                     -> last delivered ID (16) | entries read (8) | pending (8)
//	consumer   tag 2 | len(group) (4) | group | name -> seen ms (8) | pending (8)
//	pending    tag 3 | len(group) (4) | group | ID (16) -> delivered ms (8) | deliveries (8) | consumer
//	by owner   tag 4 | len(group) (4) | group | len(consumer) (4) | consumer | ID (16) -> ""
//
// so a group's pending entries are read in ID order, and one consumer's
// without reading the others' (XPENDING ... consumer, XREADGROUP history).

// Group is one consumer group's record.
type Group struct {
	Name          []byte
	LastDelivered codec.StreamID
	EntriesRead   int64 // -1: unknown
	Pending       int64
}

// Consumer is one consumer's record.
type Consumer struct {
	Name    []byte
	SeenMs  int64
	Pending int64
}

// PendingEntry is one entry delivered to a consumer and not acknowledged.
type PendingEntry struct {
	ID          codec.StreamID
	Consumer    []byte
	DeliveredMs int64
	Deliveries  int64
}

func groupField(name []byte) []byte { return append([]byte{codec.StreamTagGroup}, name...) }

func scoped(tag byte, group []byte) []byte {
	b := binary.BigEndian.AppendUint32([]byte{tag}, uint32(len(group)))
	return append(b, group...)
}

func consumerField(group, name []byte) []byte {
	return append(scoped(codec.StreamTagConsumer, group), name...)
}

func pendingField(group []byte, id codec.StreamID) []byte {
	return appendID(scoped(codec.StreamTagPending, group), id)
}

func ownerPrefix(group, consumer []byte) []byte {
	b := binary.BigEndian.AppendUint32(scoped(codec.StreamTagOwner, group), uint32(len(consumer)))
	return append(b, consumer...)
}

func appendID(b []byte, id codec.StreamID) []byte {
	b = binary.BigEndian.AppendUint64(b, id.Ms)
	return binary.BigEndian.AppendUint64(b, id.Seq)
}

func decodeID(b []byte) codec.StreamID {
	return codec.StreamID{Ms: binary.BigEndian.Uint64(b), Seq: binary.BigEndian.Uint64(b[8:])}
}

// Group returns the named group, if it exists.
func (s *Stream) Group(name []byte) (Group, bool, error) {
	v, ok, err := s.c.Get(groupField(name))
	if err != nil || !ok {
		return Group{}, false, err
	}
	if len(v) != 32 {
		return Group{}, false, codec.ErrCorrupt
	}
	return Group{Name: bytes.Clone(name), LastDelivered: decodeID(v), EntriesRead: int64(binary.BigEndian.Uint64(v[16:])),
		Pending: int64(binary.BigEndian.Uint64(v[24:]))}, true, nil
}

// PutGroup writes a group's record.
func (s *Stream) PutGroup(g Group) error {
	v := appendID(make([]byte, 0, 32), g.LastDelivered)
	v = binary.BigEndian.AppendUint64(v, uint64(g.EntriesRead))
	v = binary.BigEndian.AppendUint64(v, uint64(g.Pending))
	return s.c.Put(groupField(g.Name), v)
}

// Groups returns every group in name order.
func (s *Stream) Groups() ([]Group, error) {
	var out []Group
	p := []byte{codec.StreamTagGroup}
	err := s.c.Scan(p, []byte{codec.StreamTagGroup + 1}, false, 0, func(f, _ []byte) (bool, error) {
		g, ok, err := s.Group(f[1:])
		if err == nil && ok {
			out = append(out, g)
		}
		return err == nil, err
	})
	return out, err
}

// DestroyGroup deletes a group with its consumers and pending entries.
// Clients blocked in XREADGROUP on it are told after the commit (NOGROUP).
func (s *Stream) DestroyGroup(name []byte) error {
	if err := s.c.Remove(groupField(name)); err != nil {
		return err
	}
	s.c.Signal()
	for _, tag := range []byte{codec.StreamTagConsumer, codec.StreamTagPending, codec.StreamTagOwner} {
		p := scoped(tag, name)
		if err := s.deleteFields(p, codec.PrefixEnd(p)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Stream) deleteFields(from, to []byte) error {
	var fields [][]byte
	err := s.c.Scan(from, to, false, 0, func(f, _ []byte) (bool, error) {
		fields = append(fields, bytes.Clone(f))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, f := range fields {
		if err := s.c.Remove(f); err != nil {
			return err
		}
	}
	return nil
}

// Consumer returns a consumer of group, if it exists.
func (s *Stream) Consumer(group, name []byte) (Consumer, bool, error) {
	v, ok, err := s.c.Get(consumerField(group, name))
	if err != nil || !ok {
		return Consumer{}, false, err
	}
	if len(v) != 16 {
		return Consumer{}, false, codec.ErrCorrupt
	}
	return Consumer{Name: bytes.Clone(name), SeenMs: int64(binary.BigEndian.Uint64(v)),
		Pending: int64(binary.BigEndian.Uint64(v[8:]))}, true, nil
}

// PutConsumer writes a consumer's record.
func (s *Stream) PutConsumer(group []byte, c Consumer) error {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(c.SeenMs))
	v = binary.BigEndian.AppendUint64(v, uint64(c.Pending))
	return s.c.Put(consumerField(group, c.Name), v)
}

// Consumers returns group's consumers in name order.
func (s *Stream) Consumers(group []byte) ([]Consumer, error) {
	p := scoped(codec.StreamTagConsumer, group)
	var out []Consumer
	err := s.c.Scan(p, codec.PrefixEnd(p), false, 0, func(f, v []byte) (bool, error) {
		if len(v) != 16 {
			return false, codec.ErrCorrupt
		}
		out = append(out, Consumer{Name: bytes.Clone(f[len(p):]), SeenMs: int64(binary.BigEndian.Uint64(v)),
			Pending: int64(binary.BigEndian.Uint64(v[8:]))})
		return true, nil
	})
	return out, err
}

// DeleteConsumer deletes a consumer and its pending entries, returning how
// many it had; the group's pending count follows.
func (s *Stream) DeleteConsumer(g *Group, name []byte) (int64, error) {
	c, ok, err := s.Consumer(g.Name, name)
	if err != nil || !ok {
		return 0, err
	}
	ids, err := s.OwnerPending(g.Name, name, codec.StreamID{}, MaxID, 0)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := s.c.Remove(pendingField(g.Name, id)); err != nil {
			return 0, err
		}
	}
	p := ownerPrefix(g.Name, name)
	if err := s.deleteFields(p, codec.PrefixEnd(p)); err != nil {
		return 0, err
	}
	if err := s.c.Remove(consumerField(g.Name, name)); err != nil {
		return 0, err
	}
	g.Pending -= int64(len(ids))
	return c.Pending, s.PutGroup(*g)
}

// Pending returns a group's pending entry for id, if any.
func (s *Stream) Pending(group []byte, id codec.StreamID) (PendingEntry, bool, error) {
	v, ok, err := s.c.Get(pendingField(group, id))
	if err != nil || !ok {
		return PendingEntry{}, false, err
	}
	if len(v) < 16 {
		return PendingEntry{}, false, codec.ErrCorrupt
	}
	return PendingEntry{ID: id, DeliveredMs: int64(binary.BigEndian.Uint64(v)),
		Deliveries: int64(binary.BigEndian.Uint64(v[8:])), Consumer: bytes.Clone(v[16:])}, true, nil
}

// PutPending writes a pending entry and its owner index; when it moves
// from another consumer (claims), the old index entry goes.
func (s *Stream) PutPending(group []byte, p PendingEntry, previousOwner []byte) error {
	if previousOwner != nil && !bytes.Equal(previousOwner, p.Consumer) {
		if err := s.c.Remove(appendID(ownerPrefix(group, previousOwner), p.ID)); err != nil {
			return err
		}
	}
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 16+len(p.Consumer)), uint64(p.DeliveredMs))
	v = binary.BigEndian.AppendUint64(v, uint64(p.Deliveries))
	v = append(v, p.Consumer...)
	if err := s.c.Put(pendingField(group, p.ID), v); err != nil {
		return err
	}
	return s.c.Put(appendID(ownerPrefix(group, p.Consumer), p.ID), nil)
}

// Ack removes a pending entry and its owner index.
func (s *Stream) Ack(group []byte, p PendingEntry) error {
	if err := s.c.Remove(pendingField(group, p.ID)); err != nil {
		return err
	}
	return s.c.Remove(appendID(ownerPrefix(group, p.Consumer), p.ID))
}

// PendingRange returns a group's pending entries with start <= ID <= end
// in ID order, at most count (count <= 0: all).
func (s *Stream) PendingRange(group []byte, start, end codec.StreamID, count int64) ([]PendingEntry, error) {
	p := scoped(codec.StreamTagPending, group)
	var out []PendingEntry
	err := s.c.Scan(appendID(bytes.Clone(p), start), append(appendID(bytes.Clone(p), end), 0), false, 0,
		func(f, v []byte) (bool, error) {
			if len(f) != len(p)+16 || len(v) < 16 {
				return false, codec.ErrCorrupt
			}
			out = append(out, PendingEntry{ID: decodeID(f[len(p):]), DeliveredMs: int64(binary.BigEndian.Uint64(v)),
				Deliveries: int64(binary.BigEndian.Uint64(v[8:])), Consumer: bytes.Clone(v[16:])})
			return count <= 0 || int64(len(out)) < count, nil
		})
	return out, err
}

// OwnerPending returns the IDs pending for one consumer with start <= ID
// <= end, in order, at most count (count <= 0: all).
func (s *Stream) OwnerPending(group, consumer []byte, start, end codec.StreamID, count int64) ([]codec.StreamID, error) {
	p := ownerPrefix(group, consumer)
	var out []codec.StreamID
	err := s.c.Scan(appendID(bytes.Clone(p), start), append(appendID(bytes.Clone(p), end), 0), false, 0,
		func(f, _ []byte) (bool, error) {
			if len(f) != len(p)+16 {
				return false, codec.ErrCorrupt
			}
			out = append(out, decodeID(f[len(p):]))
			return count <= 0 || int64(len(out)) < count, nil
		})
	return out, err
}

// Entry returns one entry, if it exists.
func (s *Stream) Entry(id codec.StreamID) (Entry, bool, error) {
	v, ok, err := s.c.Get(codec.StreamEntryField(id))
	if err != nil || !ok {
		return Entry{}, false, err
	}
	fields, err := codec.DecodeStreamFields(v)
	if err != nil {
		return Entry{}, false, err
	}
	for i := range fields {
		fields[i] = bytes.Clone(fields[i])
	}
	return Entry{ID: id, Fields: fields}, true, nil
}

// LastPending returns the group's pending entry with the greatest ID (one
// reverse seek); ok is false when none is pending.
func (s *Stream) LastPending(group []byte) (PendingEntry, error) {
	p := scoped(codec.StreamTagPending, group)
	var out PendingEntry
	err := s.c.Scan(p, codec.PrefixEnd(p), true, 1, func(f, v []byte) (bool, error) {
		if len(f) != len(p)+16 || len(v) < 16 {
			return false, codec.ErrCorrupt
		}
		out = PendingEntry{ID: decodeID(f[len(p):]), DeliveredMs: int64(binary.BigEndian.Uint64(v)),
			Deliveries: int64(binary.BigEndian.Uint64(v[8:])), Consumer: bytes.Clone(v[16:])}
		return false, nil
	})
	return out, err
}
