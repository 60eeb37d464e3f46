package cluster

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
)

// Member is a node of the cluster as its record in the store says: its
// id, the address clients reach it at, and the end of its lease.
type Member struct {
	ID      string
	IP      string
	Port    int
	BusPort int   // where the node's bus (package bus) listens, on IP
	Until   int64 // unix ms by the store's clock: the node is gone unless it renews by then
	// Applied is the epoch of the newest map the node serves by: it
	// stopped serving the slots that map took from it, and every write it
	// began before finished. A node serves a slot it gained at epoch E
	// once every other live node applied E (State.Serves).
	Applied uint64
}

// Addr returns ip:port.
func (m Member) Addr() string { return m.IP + ":" + strconv.Itoa(m.Port) }

// BusAddr returns ip:busport.
func (m Member) BusAddr() string { return m.IP + ":" + strconv.Itoa(m.BusPort) }

// Encode returns the record's stored form: until (8), port (2), bus port
// (2), ip, then a 0 byte and applied (8).
func (m Member) Encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(m.Until))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Port))
	b = binary.BigEndian.AppendUint16(b, uint16(m.BusPort))
	b = append(b, m.IP...)
	b = append(b, 0)
	return binary.BigEndian.AppendUint64(b, m.Applied)
}

// DecodeMember decodes Encode's bytes for node id.
func DecodeMember(id string, b []byte) (Member, error) {
	if len(b) < 12 {
		return Member{}, fmt.Errorf("cluster: member record of %s: %d bytes", id, len(b))
	}
	m := Member{ID: id, Until: int64(binary.BigEndian.Uint64(b)), Port: int(binary.BigEndian.Uint16(b[8:])),
		BusPort: int(binary.BigEndian.Uint16(b[10:]))}
	ip := b[12:]
	if i := bytes.IndexByte(ip, 0); i >= 0 {
		if len(ip)-i-1 != 8 {
			return Member{}, fmt.Errorf("cluster: member record of %s: %d bytes after the address", id, len(ip)-i-1)
		}
		m.Applied = binary.BigEndian.Uint64(ip[i+1:])
		ip = ip[:i]
	}
	m.IP = string(ip)
	return m, nil
}

// State is what a node knows of the cluster: itself, the live members by
// id and the newest slot map it read. It is never modified once
// published.
type State struct {
	Self    Member
	Members map[string]Member
	Map     *Map
	// Serving holds the slots this node serves: those the map gives it
	// that it served under the map before, and those it gained once
	// every other live member applied the map (Member.Applied). A slot
	// the map gives this node but Serving lacks is being handed over.
	Serving *Slotset
	// Deadline is the local time (unix ms) after which the node serves
	// nothing until it renews: its lease (Self.Until, by the store's
	// clock) less a margin, counted from before the renewal began.
	Deadline int64
}

// Owner returns the live member that owns slot; false when none does
// (the cluster is down for that slot).
func (s *State) Owner(slot int) (Member, bool) {
	id := s.Map.Owners[slot]
	if id == "" {
		return Member{}, false
	}
	m, ok := s.Members[id]
	return m, ok
}

// Mine reports whether this node owns slot.
func (s *State) Mine(slot int) bool { return s.Map.Owners[slot] == s.Self.ID }

// Serves reports whether this node serves slot: it owns it and the slot
// is not being handed over to it.
func (s *State) Serves(slot int) bool { return s.Serving != nil && s.Serving.Has(slot) }

// Slotset is a set of slots.
type Slotset [Slots / 64]uint64

// Has reports whether slot is in the set.
func (s *Slotset) Has(slot int) bool { return s[slot>>6]&(1<<(slot&63)) != 0 }

// Add puts slot in the set.
func (s *Slotset) Add(slot int) { s[slot>>6] |= 1 << (slot & 63) }
