package rdb

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/rekv/rekv/codec"
)

// Stream types: Redis 5/6 (15), Redis 7.0 (19, which Dump writes) and
// Redis 7.2 (21: consumers also carry an active time).
const (
	TypeStream  = 15
	TypeStream2 = 19
	TypeStream3 = 21
)

// nodeEntries is how many entries Dump puts in one listpack node, Redis's
// stream-node-max-entries default.
const nodeEntries = 100

// Listpack stream entry flags.
const (
	entryDeleted    = 1
	entrySameFields = 2
)

// Stream is a decoded stream: its live entries in ID order and its
// consumer groups.
type Stream struct {
	Entries      []StreamEntry
	LastID       codec.StreamID
	FirstID      codec.StreamID // 0-0 when empty
	MaxDeletedID codec.StreamID
	EntriesAdded uint64
	Groups       []StreamGroup
}

// StreamEntry is one entry.
type StreamEntry struct {
	ID     codec.StreamID
	Fields [][]byte // field, value, ...
}

// StreamGroup is a consumer group with its pending entries (ID order) and
// consumers.
type StreamGroup struct {
	Name        []byte
	LastID      codec.StreamID
	EntriesRead int64 // -1: unknown
	Pending     []StreamPending
	Consumers   []StreamConsumer
}

// StreamPending is a delivered, unacknowledged entry and its owner.
type StreamPending struct {
	ID          codec.StreamID
	DeliveredMs int64
	Deliveries  uint64
	Consumer    []byte
}

// StreamConsumer is a consumer; its pending entries are the group's whose
// Consumer is its name.
type StreamConsumer struct {
	Name   []byte
	SeenMs int64
}

// DumpStream returns the DUMP payload of s (RDB_TYPE_STREAM_LISTPACKS_2):
// entries in listpack nodes of up to 100 entries, each node's master
// fields those of its first entry, every entry written with its own field
// names (no SAMEFIELDS compression, which loaders need not see).
func DumpStream(s *Stream) []byte {
	body := []byte{TypeStream2}
	nodes := (len(s.Entries) + nodeEntries - 1) / nodeEntries
	body = appendLen(body, uint64(nodes))
	for i := 0; i < len(s.Entries); i += nodeEntries {
		node := s.Entries[i:min(i+nodeEntries, len(s.Entries))]
		master := node[0].ID
		body = appendString(body, rawID(master))
		var lp lpWriter
		lp.int(int64(len(node)))
		lp.int(0) // deleted
		nf := len(node[0].Fields) / 2
		lp.int(int64(nf))
		for f := 0; f < len(node[0].Fields); f += 2 {
			lp.str(node[0].Fields[f])
		}
		lp.int(0) // end of the master entry
		for _, e := range node {
			n := len(e.Fields) / 2
			lp.int(0) // flags
			lp.int(int64(e.ID.Ms - master.Ms))
			lp.int(int64(e.ID.Seq - master.Seq))
			lp.int(int64(n))
			for _, f := range e.Fields {
				lp.str(f)
			}
			lp.int(int64(n*2 + 4)) // lp-count: flags, ms, seq, num-fields, fields and values
		}
		body = appendString(body, lp.bytes())
	}
	body = appendLen(body, uint64(len(s.Entries)))
	for _, id := range []codec.StreamID{s.LastID, s.FirstID, s.MaxDeletedID} {
		body = appendLen(appendLen(body, id.Ms), id.Seq)
	}
	body = appendLen(body, s.EntriesAdded)
	body = appendLen(body, uint64(len(s.Groups)))
	for _, g := range s.Groups {
		body = appendString(body, g.Name)
		body = appendLen(appendLen(body, g.LastID.Ms), g.LastID.Seq)
		body = appendLen(body, uint64(g.EntriesRead))
		body = appendLen(body, uint64(len(g.Pending)))
		for _, p := range g.Pending {
			body = append(body, rawID(p.ID)...)
			body = binary.LittleEndian.AppendUint64(body, uint64(p.DeliveredMs))
			body = appendLen(body, p.Deliveries)
		}
		body = appendLen(body, uint64(len(g.Consumers)))
		for _, c := range g.Consumers {
			body = appendString(body, c.Name)
			body = binary.LittleEndian.AppendUint64(body, uint64(c.SeenMs))
			var own []codec.StreamID
			for _, p := range g.Pending {
				if bytes.Equal(p.Consumer, c.Name) {
					own = append(own, p.ID)
				}
			}
			body = appendLen(body, uint64(len(own)))
			for _, id := range own {
				body = append(body, rawID(id)...)
			}
		}
	}
	return Seal(body)
}

func rawID(id codec.StreamID) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), id.Ms), id.Seq)
}

func parseRawID(b []byte) codec.StreamID {
	return codec.StreamID{Ms: binary.BigEndian.Uint64(b), Seq: binary.BigEndian.Uint64(b[8:])}
}

// decodeStream reads a stream body of type t (after its type byte).
func (r *reader) decodeStream(t byte) (*Stream, error) {
	s := &Stream{}
	nodes, err := r.count()
	if err != nil {
		return nil, err
	}
	for i := 0; i < nodes; i++ {
		key, err := r.str()
		if err != nil || len(key) != 16 {
			return nil, ErrFormat
		}
		lp, err := r.str()
		if err != nil {
			return nil, ErrFormat
		}
		if s.Entries, err = nodeEntriesOf(parseRawID(key), lp, s.Entries); err != nil {
			return nil, err
		}
	}
	length, err := r.len64()
	if err != nil || length != uint64(len(s.Entries)) {
		return nil, ErrFormat
	}
	if s.LastID, err = r.id(); err != nil {
		return nil, err
	}
	if n := len(s.Entries); n > 0 && s.LastID.Less(s.Entries[n-1].ID) {
		return nil, ErrFormat
	}
	if n := len(s.Entries); n > 0 {
		s.FirstID = s.Entries[0].ID
	}
	if t != TypeStream {
		if _, err = r.id(); err != nil { // first ID: the first entry's
			return nil, err
		}
		if s.MaxDeletedID, err = r.id(); err != nil {
			return nil, err
		}
		if s.EntriesAdded, err = r.len64(); err != nil {
			return nil, err
		}
	} else {
		s.EntriesAdded = uint64(len(s.Entries))
	}
	groups, err := r.count()
	if err != nil {
		return nil, err
	}
	seenGroup := map[string]bool{}
	for i := 0; i < groups; i++ {
		g := StreamGroup{EntriesRead: -1}
		if g.Name, err = r.str(); err != nil || seenGroup[string(g.Name)] {
			return nil, ErrFormat
		}
		seenGroup[string(g.Name)] = true
		if g.LastID, err = r.id(); err != nil {
			return nil, err
		}
		if t != TypeStream {
			n, err := r.len64()
			if err != nil {
				return nil, err
			}
			g.EntriesRead = int64(n)
		} else {
			g.EntriesRead = estimateEntriesRead(s, g.LastID)
		}
		pending, err := r.count()
		if err != nil {
			return nil, err
		}
		at := map[codec.StreamID]int{}
		for j := 0; j < pending; j++ {
			b, err := r.take(16 + 8)
			if err != nil {
				return nil, err
			}
			p := StreamPending{ID: parseRawID(b), DeliveredMs: int64(binary.LittleEndian.Uint64(b[16:]))}
			if j > 0 && !g.Pending[j-1].ID.Less(p.ID) {
				return nil, ErrFormat
			}
			if p.Deliveries, err = r.len64(); err != nil {
				return nil, err
			}
			at[p.ID] = j
			g.Pending = append(g.Pending, p)
		}
		consumers, err := r.count()
		if err != nil {
			return nil, err
		}
		seenConsumer := map[string]bool{}
		for j := 0; j < consumers; j++ {
			var c StreamConsumer
			if c.Name, err = r.str(); err != nil || seenConsumer[string(c.Name)] {
				return nil, ErrFormat
			}
			seenConsumer[string(c.Name)] = true
			b, err := r.take(8)
			if err != nil {
				return nil, err
			}
			c.SeenMs = int64(binary.LittleEndian.Uint64(b))
			if t == TypeStream3 {
				if _, err := r.take(8); err != nil { // active time
					return nil, err
				}
			}
			own, err := r.count()
			if err != nil {
				return nil, err
			}
			for k := 0; k < own; k++ {
				b, err := r.take(16)
				if err != nil {
					return nil, err
				}
				idx, ok := at[parseRawID(b)]
				if !ok || g.Pending[idx].Consumer != nil {
					return nil, ErrFormat // not in the group's PEL, or owned twice
				}
				g.Pending[idx].Consumer = c.Name
			}
			g.Consumers = append(g.Consumers, c)
		}
		for _, p := range g.Pending {
			if p.Consumer == nil {
				return nil, ErrFormat // a pending entry nobody owns
			}
		}
		s.Groups = append(s.Groups, g)
	}
	return s, nil
}

// len64 reads a plain (not string-encoded) length.
func (r *reader) len64() (uint64, error) {
	n, special, err := r.length()
	if err != nil || special {
		return 0, ErrFormat
	}
	return n, nil
}

// id reads an ID saved as two lengths.
func (r *reader) id() (codec.StreamID, error) {
	ms, err := r.len64()
	if err != nil {
		return codec.StreamID{}, err
	}
	seq, err := r.len64()
	return codec.StreamID{Ms: ms, Seq: seq}, err
}

// nodeEntriesOf appends the live entries of one listpack node (master ID
// master) to out, checking that IDs only grow.
func nodeEntriesOf(master codec.StreamID, lp []byte, out []StreamEntry) ([]StreamEntry, error) {
	es, err := listpack(lp)
	if err != nil || len(es) == 0 {
		return nil, ErrFormat
	}
	p := 0
	next := func() ([]byte, error) {
		if p >= len(es) {
			return nil, ErrFormat
		}
		p++
		return es[p-1], nil
	}
	num := func() (int64, error) {
		b, err := next()
		if err != nil {
			return 0, err
		}
		n, perr := strconv.ParseInt(string(b), 10, 64)
		if perr != nil {
			return 0, ErrFormat
		}
		return n, nil
	}
	count, err := num()
	if err != nil {
		return nil, err
	}
	deleted, err := num()
	if err != nil {
		return nil, err
	}
	nf, err := num()
	if err != nil || nf < 0 || nf > int64(len(es)) || count < 0 || deleted < 0 {
		return nil, ErrFormat
	}
	masterFields := es[p:min(p+int(nf), len(es))]
	p += int(nf)
	if z, err := num(); err != nil || z != 0 {
		return nil, ErrFormat
	}
	var live, dead int64
	for p < len(es) {
		flags, err := num()
		if err != nil {
			return nil, err
		}
		ms, err := num()
		if err != nil {
			return nil, err
		}
		seq, err := num()
		if err != nil {
			return nil, err
		}
		e := StreamEntry{ID: codec.StreamID{Ms: master.Ms + uint64(ms), Seq: master.Seq + uint64(seq)}}
		var fields [][]byte
		if flags&entrySameFields != 0 {
			for _, f := range masterFields {
				v, err := next()
				if err != nil {
					return nil, err
				}
				fields = append(fields, bytes.Clone(f), v)
			}
		} else {
			n, err := num()
			if err != nil || n < 0 || n > int64(len(es)) {
				return nil, ErrFormat
			}
			for k := int64(0); k < 2*n; k++ {
				v, err := next()
				if err != nil {
					return nil, err
				}
				fields = append(fields, v)
			}
		}
		if _, err := num(); err != nil { // lp-count
			return nil, err
		}
		if flags&entryDeleted != 0 {
			dead++
			continue
		}
		live++
		if len(fields) == 0 {
			return nil, ErrFormat
		}
		if k := len(out); k > 0 && !out[k-1].ID.Less(e.ID) {
			return nil, ErrFormat
		}
		e.Fields = fields
		out = append(out, e)
	}
	if live != count || dead != deleted {
		return nil, ErrFormat
	}
	return out, nil
}

// lpWriter builds a listpack.
type lpWriter struct {
	b []byte
	n int
}

func (w *lpWriter) entry(enc []byte) {
	w.b = append(w.b, enc...)
	l := len(enc)
	switch {
	case l <= 127:
		w.b = append(w.b, byte(l))
	case l < 16383:
		w.b = append(w.b, byte(l>>7), byte(l&127)|128)
	case l < 2097151:
		w.b = append(w.b, byte(l>>14), byte((l>>7)&127)|128, byte(l&127)|128)
	case l < 268435455:
		w.b = append(w.b, byte(l>>21), byte((l>>14)&127)|128, byte((l>>7)&127)|128, byte(l&127)|128)
	default:
		w.b = append(w.b, byte(l>>28), byte((l>>21)&127)|128, byte((l>>14)&127)|128, byte((l>>7)&127)|128, byte(l&127)|128)
	}
	w.n++
}

func (w *lpWriter) int(v int64) {
	switch {
	case v >= 0 && v <= 127:
		w.entry([]byte{byte(v)})
	case v >= -1<<15 && v < 1<<15:
		w.entry([]byte{0xf1, byte(v), byte(v >> 8)})
	case v >= -1<<23 && v < 1<<23:
		w.entry([]byte{0xf2, byte(v), byte(v >> 8), byte(v >> 16)})
	case v >= -1<<31 && v < 1<<31:
		w.entry(binary.LittleEndian.AppendUint32([]byte{0xf3}, uint32(v)))
	default:
		w.entry(binary.LittleEndian.AppendUint64([]byte{0xf4}, uint64(v)))
	}
}

func (w *lpWriter) str(s []byte) {
	var enc []byte
	switch n := len(s); {
	case n < 64:
		enc = append([]byte{0x80 | byte(n)}, s...)
	case n < 4096:
		enc = append([]byte{0xe0 | byte(n>>8), byte(n)}, s...)
	default:
		enc = append(binary.LittleEndian.AppendUint32([]byte{0xf0}, uint32(n)), s...)
	}
	w.entry(enc)
}

// bytes returns the listpack: total bytes, count, entries, end byte.
func (w *lpWriter) bytes() []byte {
	total := 6 + len(w.b) + 1
	out := binary.LittleEndian.AppendUint32(make([]byte, 0, total), uint32(total))
	out = binary.LittleEndian.AppendUint16(out, uint16(min(w.n, 65535)))
	out = append(out, w.b...)
	return append(out, 0xff)
}

// estimateEntriesRead is a group's entries-read in a stream of the first
// format (Redis 6.2), which does not keep it: what Redis 7.0 works out on
// loading one (streamEstimateDistanceFromFirstEverEntry), with the
// stream's count of entries added being its length, and no deletion
// recorded. -1: unknown.
func estimateEntriesRead(s *Stream, id codec.StreamID) int64 {
	added, length := int64(s.EntriesAdded), int64(len(s.Entries))
	switch {
	case added == 0:
		return 0
	case length == 0 && !s.LastID.Less(id), id == s.LastID:
		return added
	case s.LastID.Less(id): // a future ID
		return -1
	case s.MaxDeletedID == (codec.StreamID{}) || s.MaxDeletedID.Less(s.FirstID):
		if id.Less(s.FirstID) {
			return added - length
		}
		if id == s.FirstID {
			return added - length + 1
		}
	}
	return -1
}
