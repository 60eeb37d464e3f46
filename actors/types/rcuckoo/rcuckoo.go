package rcuckoo

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/chunked"
	"github.com/rekv/rekv/actors/types/murmur"
	"github.com/rekv/rekv/codec"
)

// Header is a filter's parameters and counts, in RedisBloom's CFHeader
// order.
type Header struct {
	Items, Buckets, Deletes, Filters uint64
	BucketSize, MaxIterations        uint16
	Expansion                        uint16
}

// HeaderLen is the encoded header's length (RedisBloom's packed CFHeader).
const HeaderLen = 8*4 + 2*3

// Encode returns the header as RedisBloom's CF.SCANDUMP sends it
// (packed, little-endian).
func (h Header) Encode() []byte {
	b := make([]byte, 0, HeaderLen)
	for _, v := range []uint64{h.Items, h.Buckets, h.Deletes, h.Filters} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	for _, v := range []uint16{h.BucketSize, h.MaxIterations, h.Expansion} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

// ErrBadHeader is a header no filter can be made of.
var ErrBadHeader = errors.New("bad Cuckoo filter header")

// MaxFilters bounds the sub-filters (RedisBloom's CF_MAX_EXPANSIONS
// default, past which inserts are refused).
const MaxFilters = 32

// maxBytes bounds a filter's fingerprints: 2^36 bytes (64 GiB).
const maxBytes = 1 << 36

// DecodeHeader parses and checks a header.
func DecodeHeader(b []byte) (Header, error) {
	if len(b) != HeaderLen {
		return Header{}, ErrBadHeader
	}
	u := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	s := func(i int) uint16 { return binary.LittleEndian.Uint16(b[32+2*i:]) }
	h := Header{Items: u(0), Buckets: u(1), Deletes: u(2), Filters: u(3), BucketSize: s(0), MaxIterations: s(1), Expansion: s(2)}
	if h.Buckets == 0 || h.Buckets&(h.Buckets-1) != 0 || h.Filters == 0 || h.Filters > MaxFilters+1 ||
		h.BucketSize == 0 || h.MaxIterations == 0 || h.Expansion&(h.Expansion-1) != 0 {
		return Header{}, ErrBadHeader
	}
	var total uint64
	for i := range h.Filters {
		n, ok := h.filterBuckets(i)
		if !ok {
			return Header{}, ErrBadHeader
		}
		total += n * uint64(h.BucketSize)
		if total > maxBytes {
			return Header{}, ErrBadHeader
		}
	}
	return h, nil
}

// filterBuckets returns sub-filter i's buckets: the first's times
// expansion^i.
func (h Header) filterBuckets(i uint64) (uint64, bool) {
	n := h.Buckets
	for range i {
		if h.Expansion != 0 && n > math.MaxUint64/uint64(h.Expansion) {
			return 0, false
		}
		n *= uint64(h.Expansion)
	}
	return n, n > 0
}

// NewHeader returns the header of an empty filter for capacity items
// (RedisBloom: buckets rounded up to a power of two; expansion rounded up
// to one).
func NewHeader(capacity uint64, bucketSize, maxIterations, expansion uint16) Header {
	return Header{Buckets: max(nextPow2(capacity/uint64(bucketSize)), 1), Filters: 1, BucketSize: bucketSize,
		MaxIterations: maxIterations, Expansion: uint16(nextPow2(uint64(expansion)))}
}

// nextPow2 is RedisBloom's getNextN2 (0 stays 0).
func nextPow2(n uint64) uint64 {
	n--
	n |= n >> 1
	n |= n >> 2
	n |= n >> 4
	n |= n >> 8
	n |= n >> 16
	n |= n >> 32
	return n + 1
}

// MemUsage is the bytes RedisBloom would allocate (CF.INFO Size).
func (h Header) MemUsage() uint64 {
	n := uint64(40 + 16*h.Filters)
	for i := range h.Filters {
		b, _ := h.filterBuckets(i)
		n += b * uint64(h.BucketSize)
	}
	return n
}

// Filter is a Cuckoo filter key open in a transaction.
type Filter struct {
	c      *store.Coll
	H      Header
	arrays []*chunked.Bytes // by sub-filter, made on first use
}

// array returns sub-filter fi's buckets.
func (f *Filter) array(fi uint64) *chunked.Bytes {
	for uint64(len(f.arrays)) <= fi {
		i := uint64(len(f.arrays))
		f.arrays = append(f.arrays, chunked.New(f.c, codec.CuckooChunk, NewFilterBytes(f.H, i),
			func(x uint64) []byte { return codec.CuckooChunkField(i, x) }))
	}
	return f.arrays[fi]
}

// Open returns key's filter: nil if missing, WRONGTYPE if another type.
func Open(tx *store.Tx, key []byte) (*Filter, error) {
	c, err := tx.Open(key, codec.TypeCuckoo, false)
	if err != nil || c == nil {
		return nil, err
	}
	v, ok, err := c.Get(codec.CuckooHeaderField)
	if err != nil {
		return nil, err
	}
	h, herr := DecodeHeader(v)
	if !ok || herr != nil {
		return nil, codec.ErrCorrupt
	}
	return &Filter{c: c, H: h}, nil
}

// Create makes key an empty filter with header h (the key must not
// exist).
func Create(tx *store.Tx, key []byte, h Header) (*Filter, error) {
	c, err := tx.Open(key, codec.TypeCuckoo, true)
	if err != nil {
		return nil, err
	}
	f := &Filter{c: c, H: h}
	return f, f.Flush()
}

// slot returns slot s of bucket bi of sub-filter fi.
func (f *Filter) slot(fi, bi, s uint64) (byte, error) {
	b, err := f.array(fi).Read(bi*uint64(f.H.BucketSize)+s, 1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (f *Filter) setSlot(fi, bi, s uint64, fp byte) error {
	return f.array(fi).Write(bi*uint64(f.H.BucketSize)+s, []byte{fp})
}

// lookup is an item's fingerprint and its two bucket hashes.
type lookup struct {
	fp     byte
	h1, h2 uint64
}

func altHash(fp byte, index uint64) uint64 { return index ^ uint64(fp)*0x5bd1e995 }

func lookupOf(item []byte) lookup {
	h := murmur.Hash64A(item, 0)
	fp := byte(h%255 + 1)
	return lookup{fp, h, altHash(fp, h)}
}

// find returns the slot holding fp in bucket h % buckets of sub-filter
// fi, or -1.
func (f *Filter) find(fi, h uint64, fp byte) (int64, error) {
	n, _ := f.H.filterBuckets(fi)
	bi := h % n
	for s := range uint64(f.H.BucketSize) {
		v, err := f.slot(fi, bi, s)
		if err != nil {
			return -1, err
		}
		if v == fp {
			return int64(s), nil
		}
	}
	return -1, nil
}

// Exists reports whether item's fingerprint is in any sub-filter.
func (f *Filter) Exists(item []byte) (bool, error) {
	l := lookupOf(item)
	return f.has(l)
}

func (f *Filter) has(l lookup) (bool, error) {
	for fi := range f.H.Filters {
		for _, h := range []uint64{l.h1, l.h2} {
			s, err := f.find(fi, h, l.fp)
			if err != nil || s >= 0 {
				return s >= 0, err
			}
		}
	}
	return false, nil
}

// Count returns how many times item's fingerprint is stored.
func (f *Filter) Count(item []byte) (uint64, error) {
	l := lookupOf(item)
	var n uint64
	for fi := range f.H.Filters {
		buckets, _ := f.H.filterBuckets(fi)
		for _, h := range []uint64{l.h1, l.h2} {
			for s := range uint64(f.H.BucketSize) {
				v, err := f.slot(fi, h%buckets, s)
				if err != nil {
					return 0, err
				}
				if v == l.fp {
					n++
				}
			}
		}
	}
	return n, nil
}

// Insert results.
type Status int

const (
	Inserted Status = 1
	Exists   Status = 0
	NoSpace  Status = -1
)

// Insert adds item (unless unique and its fingerprint is there: Exists);
// NoSpace when no slot could be made and the filter may not grow.
func (f *Filter) Insert(item []byte, unique bool) (Status, error) {
	l := lookupOf(item)
	if unique {
		if ok, err := f.has(l); err != nil || ok {
			return Exists, err
		}
	}
	for {
		for fi := f.H.Filters; fi > 0; fi-- {
			ok, err := f.putAvailable(fi-1, l.h1, l.h2, l.fp)
			if err != nil {
				return NoSpace, err
			}
			if ok {
				f.H.Items++
				return Inserted, nil
			}
		}
		ok, err := f.kickInsert(l)
		if err != nil {
			return NoSpace, err
		}
		if ok {
			f.H.Items++
			return Inserted, nil
		}
		if f.H.Expansion == 0 {
			return NoSpace, nil
		}
		if _, ok := f.H.filterBuckets(f.H.Filters); !ok {
			return NoSpace, nil
		}
		f.H.Filters++ // a new, empty sub-filter: try again
	}
}

// putAvailable stores fp in an empty slot of bucket h1 or h2 of
// sub-filter fi, if there is one.
func (f *Filter) putAvailable(fi, h1, h2 uint64, fp byte) (bool, error) {
	for _, h := range []uint64{h1, h2} {
		s, err := f.find(fi, h, 0)
		if err != nil {
			return false, err
		}
		if s >= 0 {
			n, _ := f.H.filterBuckets(fi)
			return true, f.setSlot(fi, h%n, uint64(s), fp)
		}
	}
	return false, nil
}

// kickInsert displaces fingerprints in the newest sub-filter, up to
// maxIterations times, to make room for l; when that fails it undoes
// the displacements, as RedisBloom's Filter_KOInsert does.
func (f *Filter) kickInsert(l lookup) (bool, error) {
	fi := f.H.Filters - 1
	n, _ := f.H.filterBuckets(fi)
	bs := uint64(f.H.BucketSize)
	fp := l.fp
	var victim uint64
	i := l.h1 % n
	swap := func() error {
		old, err := f.slot(fi, i, victim)
		if err != nil {
			return err
		}
		if err := f.setSlot(fi, i, victim, fp); err != nil {
			return err
		}
		fp = old
		return nil
	}
	for range f.H.MaxIterations {
		if err := swap(); err != nil {
			return false, err
		}
		i = altHash(fp, i) % n
		s, err := f.find(fi, i, 0)
		if err != nil {
			return false, err
		}
		if s >= 0 {
			return true, f.setSlot(fi, i, uint64(s), fp)
		}
		victim = (victim + 1) % bs
	}
	for range f.H.MaxIterations {
		victim = (victim + bs - 1) % bs
		i = altHash(fp, i) % n
		if err := swap(); err != nil {
			return false, err
		}
	}
	return false, nil
}

// Delete removes one copy of item's fingerprint (newest sub-filter
// first) and reports whether there was one; past a tenth of the items
// deleted, newer sub-filters are compacted into older ones.
func (f *Filter) Delete(item []byte) (bool, error) {
	l := lookupOf(item)
	for fi := f.H.Filters; fi > 0; fi-- {
		n, _ := f.H.filterBuckets(fi - 1)
		for _, h := range []uint64{l.h1, l.h2} {
			s, err := f.find(fi-1, h, l.fp)
			if err != nil {
				return false, err
			}
			if s < 0 {
				continue
			}
			if err := f.setSlot(fi-1, h%n, uint64(s), 0); err != nil {
				return false, err
			}
			f.H.Items--
			f.H.Deletes++
			if f.H.Filters > 1 && float64(f.H.Deletes) > float64(f.H.Items)*0.10 {
				return true, f.Compact(false)
			}
			return true, nil
		}
	}
	return false, nil
}

// Compact moves fingerprints of newer sub-filters into older ones where
// they fit, dropping the newest sub-filter once it is empty; with cont,
// it goes on to older sub-filters after one that could not be emptied.
func (f *Filter) Compact(cont bool) error {
	for fi := f.H.Filters; fi > 1; fi-- {
		emptied, err := f.compactOne(fi - 1)
		if err != nil {
			return err
		}
		if !emptied && !cont {
			break
		}
	}
	f.H.Deletes = 0
	return nil
}

// compactOne relocates sub-filter fi's fingerprints into older
// sub-filters; it drops fi when all moved and fi is the newest.
func (f *Filter) compactOne(fi uint64) (bool, error) {
	n, _ := f.H.filterBuckets(fi)
	all := true
	for bi := range n {
		for s := range uint64(f.H.BucketSize) {
			fp, err := f.slot(fi, bi, s)
			if err != nil {
				return false, err
			}
			if fp == 0 {
				continue
			}
			moved := false
			for older := range fi {
				if moved, err = f.putAvailable(older, bi, altHash(fp, bi), fp); err != nil {
					return false, err
				}
				if moved {
					break
				}
			}
			if !moved {
				all = false
				continue
			}
			if err := f.setSlot(fi, bi, s, 0); err != nil {
				return false, err
			}
		}
	}
	if all && fi == f.H.Filters-1 {
		if err := f.dropFilter(fi); err != nil {
			return false, err
		}
		f.H.Filters--
	}
	return all, nil
}

// dropFilter deletes sub-filter fi's chunks.
func (f *Filter) dropFilter(fi uint64) error {
	if err := f.array(fi).Drop(); err != nil {
		return err
	}
	f.arrays = f.arrays[:fi]
	return nil
}

// Flush writes the changed chunks, the header and the item count.
func (f *Filter) Flush() error {
	for _, a := range f.arrays {
		if err := a.Flush(); err != nil {
			return err
		}
	}
	if err := f.c.Put(codec.CuckooHeaderField, f.H.Encode()); err != nil {
		return err
	}
	return f.c.Grow(int64(f.H.Items) - f.c.Size())
}

// Data returns n bytes of sub-filter fi's buckets from byte off.
func (f *Filter) Data(fi, off, n uint64) ([]byte, error) { return f.array(fi).Range(off, n) }

// FilterBytes returns sub-filter fi's size in bytes.
func (f *Filter) FilterBytes(fi uint64) uint64 { return NewFilterBytes(f.H, fi) }

// Locate returns the sub-filter holding byte pos of the buckets dumped
// one sub-filter after another (CF.SCANDUMP, CF.LOADCHUNK), and pos's
// offset in it.
func (f *Filter) Locate(pos uint64) (fi, off uint64, ok bool) {
	for fi := range f.H.Filters {
		size := f.FilterBytes(fi)
		if pos < size {
			return fi, pos, true
		}
		pos -= size
	}
	return 0, 0, false
}

// NewFilterBytes returns the size in bytes of sub-filter fi of a filter
// with header h.
func NewFilterBytes(h Header, fi uint64) uint64 {
	n, _ := h.filterBuckets(fi)
	return n * uint64(h.BucketSize)
}

// Write copies data into sub-filter fi from byte off (LOADCHUNK,
// RESTORE).
func (f *Filter) Write(fi, off uint64, data []byte) error { return f.array(fi).Write(off, data) }
