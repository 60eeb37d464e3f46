package cluster

import (
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
	Until   int64 // unix ms: the node is gone unless it renews by then
}

// Addr returns ip:port.
func (m Member) Addr() string { return m.IP + ":" + strconv.Itoa(m.Port) }

// BusAddr returns ip:busport.
func (m Member) BusAddr() string { return m.IP + ":" + strconv.Itoa(m.BusPort) }

// Encode returns the record's stored form: until (8), port (2), bus port
// (2), ip.
func (m Member) Encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(m.Until))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Port))
	b = binary.BigEndian.AppendUint16(b, uint16(m.BusPort))
	return append(b, m.IP...)
}

// DecodeMember decodes Encode's bytes for node id.
func DecodeMember(id string, b []byte) (Member, error) {
	if len(b) < 12 {
		return Member{}, fmt.Errorf("cluster: member record of %s: %d bytes", id, len(b))
	}
	return Member{ID: id, Until: int64(binary.BigEndian.Uint64(b)), Port: int(binary.BigEndian.Uint16(b[8:])),
		BusPort: int(binary.BigEndian.Uint16(b[10:])), IP: string(b[12:])}, nil
}

// State is what a node knows of the cluster: itself, the live members by
// id and the newest slot map it read. It is never modified once
// published.
type State struct {
	Self    Member
	Members map[string]Member
	Map     *Map
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
