package codec

import "encoding/binary"

// StreamID is a stream entry ID, ms-seq.
type StreamID struct{ Ms, Seq uint64 }

// Less reports whether id sorts before o.
func (id StreamID) Less(o StreamID) bool { return id.Ms < o.Ms || id.Ms == o.Ms && id.Seq < o.Seq }

// StreamMeta is the stream part of a meta: the last ID handed out, the
// largest ID ever deleted, how many entries were ever added, and the
// stream's tail node.
type StreamMeta struct {
	LastID       StreamID
	MaxDeletedID StreamID
	EntriesAdded uint64
	Tail         StreamNode
}

// StreamNode is one node of the radix tree of listpacks Redis would keep
// for a stream (approximate trimming removes only whole nodes): the IDs
// of its first and last entries (its master ID; the last may be
// deleted), its live and deleted entries, and, for the tail node, which
// new entries join, its listpack's bytes without the two counters and
// the count and hash of its master entry's field names. A node with no
// entry (Live+Deleted == 0) is none. Closed nodes are records
// (StreamNodeField); the tail is in the meta. Streams written before
// nodes were kept have entries before the first node.
type StreamNode struct {
	First, Last   StreamID
	Live, Deleted uint64
	Bytes         uint64
	Fields        uint64
	FieldsHash    uint64
}

// Empty reports whether n is no node.
func (n StreamNode) Empty() bool { return n.Live+n.Deleted == 0 }

// streamNodeFields is the stream meta's length with a tail node (without
// one, or written before nodes were kept, MetaFields).
const streamNodeFields = 15

// Stream sub-key fields. Every field of a stream's sub-keys starts with a
// tag byte, so that its families stay apart under the key's version:
// entries (tag 0) come first, in ID order; tags 1-4 hold consumer groups
// (groups, consumers, the pending-entries list and its per-consumer index;
// see actors/types/rstream/groups.go).
const (
	StreamTagEntry    byte = 0
	StreamTagGroup    byte = 1 // group name -> its record
	StreamTagConsumer byte = 2 // group | consumer -> its record
	StreamTagPending  byte = 3 // group | ID -> the pending entry
	StreamTagOwner    byte = 4 // group | consumer | ID -> "" (per-consumer index)
	StreamTagNode     byte = 5 // first ID -> a closed node (StreamNode)
)

// StreamNodeField returns the sub-key field of the closed node whose
// first entry is first: 5 | ms | seq.
func StreamNodeField(first StreamID) []byte {
	b := make([]byte, 0, 17)
	b = append(b, StreamTagNode)
	b = binary.BigEndian.AppendUint64(b, first.Ms)
	return binary.BigEndian.AppendUint64(b, first.Seq)
}

// AppendStreamNode encodes a closed node's record (the field holds its
// first ID): live, deleted, last ID.
func AppendStreamNode(dst []byte, n StreamNode) []byte {
	for _, v := range []uint64{n.Live, n.Deleted, n.Last.Ms, n.Last.Seq} {
		dst = binary.BigEndian.AppendUint64(dst, v)
	}
	return dst
}

// DecodeStreamNode decodes a closed node from its field and record.
func DecodeStreamNode(f, v []byte) (StreamNode, error) {
	if len(f) != 17 || f[0] != StreamTagNode || len(v) != 32 {
		return StreamNode{}, ErrCorrupt
	}
	u := func(b []byte, i int) uint64 { return binary.BigEndian.Uint64(b[8*i:]) }
	return StreamNode{First: StreamID{u(f[1:], 0), u(f[1:], 1)}, Live: u(v, 0), Deleted: u(v, 1), Last: StreamID{u(v, 2), u(v, 3)}}, nil
}

// StreamEntryField returns the sub-key field of entry id: 0 | ms | seq.
func StreamEntryField(id StreamID) []byte {
	b := make([]byte, 0, 17)
	b = append(b, StreamTagEntry)
	b = binary.BigEndian.AppendUint64(b, id.Ms)
	return binary.BigEndian.AppendUint64(b, id.Seq)
}

// DecodeStreamEntryField decodes an entry field.
func DecodeStreamEntryField(f []byte) (StreamID, error) {
	if len(f) != 17 || f[0] != StreamTagEntry {
		return StreamID{}, ErrCorrupt
	}
	return StreamID{binary.BigEndian.Uint64(f[1:]), binary.BigEndian.Uint64(f[9:])}, nil
}

// AppendStreamFields encodes an entry's field-value pairs: count (4), then
// each string as length (4) | bytes.
func AppendStreamFields(dst []byte, pairs [][]byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(pairs)))
	for _, p := range pairs {
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(p)))
		dst = append(dst, p...)
	}
	return dst
}

// DecodeStreamFields decodes AppendStreamFields' encoding (aliasing v).
func DecodeStreamFields(v []byte) ([][]byte, error) {
	if len(v) < 4 {
		return nil, ErrCorrupt
	}
	n := binary.BigEndian.Uint32(v)
	v = v[4:]
	if uint64(n)*4 > uint64(len(v)) {
		return nil, ErrCorrupt
	}
	out := make([][]byte, 0, n)
	for i := uint32(0); i < n; i++ {
		if len(v) < 4 {
			return nil, ErrCorrupt
		}
		l := binary.BigEndian.Uint32(v)
		if uint64(l) > uint64(len(v)-4) {
			return nil, ErrCorrupt
		}
		out = append(out, v[4:4+l])
		v = v[4+l:]
	}
	if len(v) != 0 {
		return nil, ErrCorrupt
	}
	return out, nil
}
