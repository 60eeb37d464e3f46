package rstream

import (
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"math"
	"strconv"

	"github.com/rekv/rekv/codec"
)

// Redis keeps a stream as a radix tree of listpack nodes, and trimming
// with ~ (or a LIMIT) removes only whole nodes: how many entries it
// leaves depends on where the nodes begin. rekv keeps the same nodes
// (codec.StreamNode): an entry joins the tail node unless that node has
// stream-node-max-entries entries, deleted ones included, or its
// listpack, as Redis would encode it, would reach stream-node-max-bytes;
// then it starts a new node and the tail becomes a closed node's record.
// XDEL and trims update the counts of the node an entry belongs to, and
// a node emptied by XDEL goes, as in Redis. Entries a stream held before
// nodes were kept (before any node) form groups of legacyNodeEntries.

// NodeLimits are stream-node-max-entries and stream-node-max-bytes
// (0: no limit).
type NodeLimits struct{ Entries, Bytes int64 }

// DefaultNodeLimits are Redis's defaults.
var DefaultNodeLimits = NodeLimits{Entries: 100, Bytes: 4096}

// legacyNodeEntries groups entries stored before nodes were kept.
const legacyNodeEntries = 100

// maxNodeBytes is Redis's STREAM_LISTPACK_MAX_SIZE, the bound of a node
// whatever stream-node-max-bytes says.
const maxNodeBytes = 1 << 30

// lpHeader is a listpack's header (total bytes, elements) and end byte.
const lpHeader = 6 + 1

// lpIntLen returns the bytes of an integer element of a listpack, its
// back-length included.
func lpIntLen(v int64) uint64 {
	switch {
	case v >= 0 && v <= 127:
		return 1 + 1
	case v >= -4096 && v <= 4095:
		return 2 + 1
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return 3 + 1
	case v >= -1<<23 && v < 1<<23:
		return 4 + 1
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return 5 + 1
	}
	return 9 + 1
}

// lpStrLen returns the bytes of a string element: an integer's when the
// string is one in canonical form (as listpacks store it), else its
// header, bytes and back-length.
func lpStrLen(b []byte) uint64 {
	if v, ok := lpInt(b); ok {
		return lpIntLen(v)
	}
	n := len(b)
	switch {
	case n < 64:
		n++
	case n < 4096:
		n += 2
	default:
		n += 5
	}
	return uint64(n + backLen(n))
}

// backLen is the size of a listpack element's back-length for an element
// of n bytes.
func backLen(n int) int {
	switch {
	case n <= 127:
		return 1
	case n < 16383:
		return 2
	case n < 2097151:
		return 3
	case n < 268435455:
		return 4
	}
	return 5
}

// lpInt reports whether a listpack stores b as an integer: a canonical
// decimal int64 of at most 20 bytes (no sign but '-', no leading zero,
// no "-0").
func lpInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	if len(b) == 1 && b[0] == '0' {
		return 0, true
	}
	d := b
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || d[0] < '1' || d[0] > '9' {
		return 0, false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	return v, err == nil
}

// fieldsHash identifies an entry's field names (a node's master entry's,
// which later entries with the same ones reuse).
func fieldsHash(pairs [][]byte) uint64 {
	h := fnv.New64a()
	var n [4]byte
	for i := 0; i < len(pairs); i += 2 {
		binary.BigEndian.PutUint32(n[:], uint32(len(pairs[i])))
		_, _ = h.Write(n[:])
		_, _ = h.Write(pairs[i])
	}
	return h.Sum64()
}

// newNode returns the node an entry with pairs starts: its listpack holds
// the master entry (field count, field names, a 0 terminator) besides
// the two counters.
func newNode(id codec.StreamID, pairs [][]byte) codec.StreamNode {
	n := int64(len(pairs) / 2)
	b := lpHeader + lpIntLen(n) + lpIntLen(0)
	for i := 0; i < len(pairs); i += 2 {
		b += lpStrLen(pairs[i])
	}
	return codec.StreamNode{First: id, Bytes: b, Fields: uint64(n), FieldsHash: fieldsHash(pairs)}
}

// full reports whether t takes no entry of pairs' size (Redis's test in
// streamAppendItem).
func (lim NodeLimits) full(t codec.StreamNode, pairs [][]byte) bool {
	maxBytes := uint64(lim.Bytes)
	if lim.Bytes <= 0 || lim.Bytes > maxNodeBytes {
		maxBytes = maxNodeBytes
	}
	var add uint64
	for _, p := range pairs {
		add += uint64(len(p))
	}
	used := t.Bytes + lpIntLen(int64(t.Live)) + lpIntLen(int64(t.Deleted))
	return used+add >= maxBytes || lim.Entries > 0 && t.Live+t.Deleted >= uint64(lim.Entries)
}

// entryLen returns the listpack bytes of entry id with pairs in node t:
// flags, the ID as deltas from the master ID, the field count and names
// unless they are the master entry's, the values, and the element count.
func entryLen(t codec.StreamNode, id codec.StreamID, pairs [][]byte) uint64 {
	n := int64(len(pairs) / 2)
	same := uint64(n) == t.Fields && fieldsHash(pairs) == t.FieldsHash
	flags, count := int64(0), 3+2*n+1
	if same {
		flags, count = 2, 3+n
	}
	b := lpIntLen(flags) + lpIntLen(int64(id.Ms-t.First.Ms)) + lpIntLen(int64(id.Seq-t.First.Seq)) + lpIntLen(count)
	if !same {
		b += lpIntLen(n)
	}
	for i, p := range pairs {
		if !same || i%2 == 1 {
			b += lpStrLen(p)
		}
	}
	return b
}

// appendToNode files a new entry in its node: the tail, or a new node
// when the tail is full (the tail is then closed to a record).
func (s *Stream) appendToNode(m *codec.StreamMeta, id codec.StreamID, pairs [][]byte, lim NodeLimits) error {
	if !m.Tail.Empty() && lim.full(m.Tail, pairs) {
		if err := s.putNode(m.Tail); err != nil {
			return err
		}
		m.Tail = codec.StreamNode{}
	}
	if m.Tail.Empty() {
		m.Tail = newNode(id, pairs)
	}
	m.Tail.Bytes += entryLen(m.Tail, id, pairs)
	m.Tail.Live++
	m.Tail.Last = id
	return nil
}

// putNode writes a closed node's record.
func (s *Stream) putNode(n codec.StreamNode) error {
	return s.c.Put(codec.StreamNodeField(n.First), codec.AppendStreamNode(nil, n))
}

// nodeKind is where a node is kept.
type nodeKind int

const (
	nodeLegacy nodeKind = iota // entries from before nodes were kept
	nodeRecord                 // a closed node
	nodeTail                   // the meta's tail
)

// node is one node as trimming walks them.
type node struct {
	codec.StreamNode
	kind nodeKind
}

// firstRecord returns the first closed node at or after from.
func (s *Stream) firstRecord(from codec.StreamID) (codec.StreamNode, bool, error) {
	var n codec.StreamNode
	found := false
	err := s.c.Scan(codec.StreamNodeField(from), []byte{codec.StreamTagNode + 1}, false, 1, func(f, v []byte) (bool, error) {
		var err error
		n, err = codec.DecodeStreamNode(f, v)
		found = err == nil
		return false, err
	})
	return n, found, err
}

// nodeOf returns the node that holds entry id: false for an entry from
// before nodes were kept.
func (s *Stream) nodeOf(m codec.StreamMeta, id codec.StreamID) (node, bool, error) {
	if !m.Tail.Empty() && !id.Less(m.Tail.First) {
		return node{m.Tail, nodeTail}, true, nil
	}
	var n node
	found := false
	err := s.c.Scan(codec.StreamNodeField(codec.StreamID{}), nextField(codec.StreamNodeField(id)), true, 1, func(f, v []byte) (bool, error) {
		sn, err := codec.DecodeStreamNode(f, v)
		n, found = node{sn, nodeRecord}, err == nil
		return false, err
	})
	if found && n.Last.Less(id) {
		found = false // after that node's last entry: a stray entry
	}
	return n, found, err
}

// headNode returns the stream's first node: a group of entries from
// before nodes were kept, else the first closed node, else the tail.
func (s *Stream) headNode(m codec.StreamMeta) (node, bool, error) {
	rec, ok, err := s.firstRecord(codec.StreamID{})
	if err != nil {
		return node{}, false, err
	}
	known := node{rec, nodeRecord}
	if !ok {
		known, ok = node{m.Tail, nodeTail}, !m.Tail.Empty()
	}
	bound := MaxID
	if ok {
		bound = known.First
	}
	if s.Len() > 0 {
		// Entries before the first node are from before nodes were kept.
		ids, err := s.entriesOf(node{StreamNode: codec.StreamNode{Last: MaxID}}, func(id codec.StreamID, i int) bool {
			return !id.Less(bound) || i == legacyNodeEntries
		})
		if err != nil {
			return node{}, false, err
		}
		if len(ids) > 0 {
			return node{codec.StreamNode{First: ids[0], Last: ids[len(ids)-1], Live: uint64(len(ids))}, nodeLegacy}, true, nil
		}
	}
	return known, ok, nil
}

// setNode writes node n back after its counts changed: its record or
// the tail (drop: n is gone).
func (s *Stream) setNode(m *codec.StreamMeta, n node, drop bool) error {
	switch n.kind {
	case nodeTail:
		m.Tail = n.StreamNode
		if drop {
			m.Tail = codec.StreamNode{}
		}
	case nodeRecord:
		if drop {
			return s.c.Remove(codec.StreamNodeField(n.First))
		}
		return s.putNode(n.StreamNode)
	}
	return nil
}

// entriesOf returns the IDs of n's live entries in order, until stop
// (given each ID and how many came before it) says to stop; n is the
// stream's first node, so the first entry found is recorded as the
// stream's head.
func (s *Stream) entriesOf(n node, stop func(id codec.StreamID, i int) bool) ([]codec.StreamID, error) {
	from := codec.StreamEntryField(n.First)
	if h := s.c.Head(); h != nil && bytes.Compare(from, h) < 0 {
		from = h
	}
	var ids []codec.StreamID
	err := s.c.Scan(from, nextField(codec.StreamEntryField(n.Last)), false, 0, func(f, _ []byte) (bool, error) {
		id, err := codec.DecodeStreamEntryField(f)
		if err != nil {
			return false, err
		}
		if stop != nil && stop(id, len(ids)) {
			return false, nil
		}
		if len(ids) == 0 {
			s.c.SetHead(f)
		}
		ids = append(ids, id)
		return true, nil
	})
	return ids, err
}

// TrimArgs is a trimming strategy: MAXLEN (MaxLen set, to Len) or MINID;
// Approx removes whole nodes only; Limit bounds the entries removed (0:
// none).
type TrimArgs struct {
	MaxLen bool
	Len    int64
	MinID  codec.StreamID
	Approx bool
	Limit  int64
}

// Trim trims the stream as Redis's streamTrim does, node by node from
// the oldest: a node goes whole while the stream stays long enough
// (MAXLEN) or all its entries are older than MinID; exact trimming then
// deletes entries inside the next node. It returns how many entries it
// deleted.
func (s *Stream) Trim(a TrimArgs) (int64, error) {
	m := s.c.Stream()
	length := s.Len()
	var deleted int64
	for {
		if a.MaxLen && length <= a.Len {
			break
		}
		n, ok, err := s.headNode(m)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		entries := int64(n.Live)
		if a.Limit > 0 && deleted+entries > a.Limit {
			break
		}
		whole := a.MaxLen && length-entries >= a.Len || !a.MaxLen && n.Last.Less(a.MinID)
		if whole {
			ids, err := s.entriesOf(n, nil)
			if err != nil {
				return 0, err
			}
			if err := s.removeEntries(ids); err != nil {
				return 0, err
			}
			if err := s.setNode(&m, n, true); err != nil {
				return 0, err
			}
			length -= int64(len(ids))
			deleted += int64(len(ids))
			if len(ids) == 0 && n.kind == nodeLegacy {
				break // cannot happen: a legacy node has entries
			}
			continue
		}
		if a.Approx {
			break
		}
		drop, err := s.entriesOf(n, func(id codec.StreamID, i int) bool {
			return a.MaxLen && length-int64(i) <= a.Len || !a.MaxLen && !id.Less(a.MinID)
		})
		if err != nil {
			return 0, err
		}
		length -= int64(len(drop))
		if err := s.removeEntries(drop); err != nil {
			return 0, err
		}
		n.Live -= min(n.Live, uint64(len(drop)))
		n.Deleted += uint64(len(drop))
		if err := s.setNode(&m, n, false); err != nil {
			return 0, err
		}
		deleted += int64(len(drop))
		break
	}
	if deleted == 0 && m == s.c.Stream() {
		return 0, nil
	}
	return deleted, s.c.SetStream(m, length)
}

// Tree returns the sizes XINFO STREAM reports for Redis's radix tree:
// its keys (the stream's nodes: closed ones, the tail, and the groups of
// entries from before nodes were kept) and its nodes (those of a radix
// tree over the nodes' 16-byte master IDs, counted as Redis's rax
// builds it; for a stream with entries from before nodes were kept,
// keys + 1).
func (s *Stream) Tree() (keys, nodes int64, err error) {
	m := s.c.Stream()
	var firsts [][]byte
	var live int64
	err = s.c.Scan(codec.StreamNodeField(codec.StreamID{}), []byte{codec.StreamTagNode + 1}, false, 0, func(f, v []byte) (bool, error) {
		nd, err := codec.DecodeStreamNode(f, v)
		firsts = append(firsts, bytes.Clone(f[1:]))
		live += int64(nd.Live)
		return err == nil, err
	})
	if !m.Tail.Empty() {
		firsts = append(firsts, codec.StreamNodeField(m.Tail.First)[1:])
		live += int64(m.Tail.Live)
	}
	keys = int64(len(firsts))
	if legacy := s.Len() - live; legacy > 0 {
		keys += (legacy + legacyNodeEntries - 1) / legacyNodeEntries
		return keys, keys + 1, err
	}
	if len(firsts) == 0 {
		return 0, 1, err // the root alone
	}
	return keys, 1 + raxNodes(firsts, 0), err
}

// raxNodes returns the nodes of a rax under the node at prefix length
// depth, which keys (sorted, distinct, none a prefix of another) share:
// a run of bytes they all share is one compressed node ending in a node;
// where they differ, the node branches, each next byte a child node.
func raxNodes(keys [][]byte, depth int) int64 {
	if len(keys) == 1 && len(keys[0]) == depth {
		return 0 // a leaf: the key itself
	}
	l := len(keys[0]) - depth
	for _, k := range keys[1:] {
		l = min(l, len(k)-depth)
		for i := 0; i < l; i++ {
			if k[depth+i] != keys[0][depth+i] {
				l = i
				break
			}
		}
	}
	if l > 0 {
		return 1 + raxNodes(keys, depth+l)
	}
	var n int64
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j][depth] == keys[i][depth] {
			j++
		}
		n += 1 + raxNodes(keys[i:j], depth+1)
		i = j
	}
	return n
}

// removeEntries deletes entries that exist.
func (s *Stream) removeEntries(ids []codec.StreamID) error {
	for _, id := range ids {
		if err := s.c.Remove(codec.StreamEntryField(id)); err != nil {
			return err
		}
	}
	return nil
}
