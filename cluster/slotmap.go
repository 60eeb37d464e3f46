package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Map is the slot map: the owner of each slot, by node id ("" for a slot
// no node owns), and an epoch raised by every change.
type Map struct {
	Epoch  uint64
	Owners [Slots]string
}

// Range is a run of slots [Start, End] owned by one node.
type Range struct {
	Start, End int
	Owner      string
}

// Ranges returns the map as runs of slots with one owner, by slot; slots
// no node owns are left out.
func (m *Map) Ranges() []Range {
	var rs []Range
	for s := 0; s < Slots; s++ {
		o := m.Owners[s]
		if o == "" {
			continue
		}
		if n := len(rs); n > 0 && rs[n-1].Owner == o && rs[n-1].End == s-1 {
			rs[n-1].End = s
			continue
		}
		rs = append(rs, Range{Start: s, End: s, Owner: o})
	}
	return rs
}

// Count returns how many slots id owns.
func (m *Map) Count(id string) int {
	n := 0
	for _, o := range m.Owners {
		if o == id {
			n++
		}
	}
	return n
}

// Rebalance returns the map that spreads every slot over the live nodes
// (ids) with the least movement from old: the first Slots%len(ids) ids in
// sorted order may own one slot more than the others. A node that is not
// live loses its slots; a node over its share gives up its highest
// slots; the freed slots go, lowest first, to the nodes under their share
// in sorted order, each filling its share before the next. The result
// depends only on old's owners and the set of ids. With no live node
// every slot is unowned. The epoch is old's, plus one when an owner
// changed.
func Rebalance(old *Map, ids []string) *Map {
	live := slices.Clone(ids)
	slices.Sort(live)
	live = slices.Compact(live)
	m := &Map{Epoch: old.Epoch, Owners: old.Owners}
	share := map[string]int{}
	for i, id := range live {
		share[id] = Slots / len(live)
		if i < Slots%len(live) {
			share[id]++
		}
	}
	count := map[string]int{}
	for s, o := range m.Owners {
		if _, ok := share[o]; !ok {
			m.Owners[s] = ""
			continue
		}
		count[o]++
	}
	for s := Slots - 1; s >= 0; s-- { // over their share: give up the highest
		if o := m.Owners[s]; o != "" && count[o] > share[o] {
			m.Owners[s] = ""
			count[o]--
		}
	}
	next := 0 // the first live node that may still be under its share
	for s := 0; s < Slots && len(live) > 0; s++ {
		if m.Owners[s] != "" {
			continue
		}
		for next < len(live) && count[live[next]] >= share[live[next]] {
			next++
		}
		if next == len(live) {
			break
		}
		m.Owners[s] = live[next]
		count[live[next]]++
	}
	if m.Owners != old.Owners {
		m.Epoch++
	}
	return m
}

// ErrCorrupt is a stored slot map that does not decode.
var ErrCorrupt = errors.New("cluster: corrupt slot map")

// Encode returns the map's stored form: epoch (8), then its ranges, each
// start (2) end (2) len(owner) (1) owner.
func (m *Map) Encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, m.Epoch)
	for _, r := range m.Ranges() {
		b = binary.BigEndian.AppendUint16(b, uint16(r.Start))
		b = binary.BigEndian.AppendUint16(b, uint16(r.End))
		b = append(b, byte(len(r.Owner)))
		b = append(b, r.Owner...)
	}
	return b
}

// DecodeMap decodes Encode's bytes.
func DecodeMap(b []byte) (*Map, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	m := &Map{Epoch: binary.BigEndian.Uint64(b)}
	for b = b[8:]; len(b) > 0; {
		if len(b) < 5 || len(b) < 5+int(b[4]) {
			return nil, fmt.Errorf("%w: a range cut short", ErrCorrupt)
		}
		start, end, n := int(binary.BigEndian.Uint16(b)), int(binary.BigEndian.Uint16(b[2:])), int(b[4])
		if start > end || end >= Slots || n == 0 {
			return nil, fmt.Errorf("%w: range %d-%d", ErrCorrupt, start, end)
		}
		owner := string(b[5 : 5+n])
		for s := start; s <= end; s++ {
			m.Owners[s] = owner
		}
		b = b[5+n:]
	}
	return m, nil
}
