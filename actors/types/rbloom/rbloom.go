package rbloom

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Filter is a Bloom filter key open in a transaction.
type Filter struct {
	c     *store.Coll
	Chain Chain
	// chunks caches the chunks read or changed by this operation, by
	// sub-filter and index; dirty are those to write.
	chunks map[chunkRef][]byte
	dirty  map[chunkRef]bool
	// changed is set once the header differs from what is stored;
	// stored is how many sub-filters' headers are.
	changed bool
	stored  int
}

type chunkRef struct {
	link  uint32
	index uint64
}

// ErrFull is an item a non-scaling filter at capacity cannot take.
var ErrFull = errors.New("non scaling filter is full")

// ErrCannotGrow is a filter whose next sub-filter cannot be made (its
// capacity would overflow).
var ErrCannotGrow = errors.New("cannot add a sub-filter")

// Open returns key's filter: nil if missing, WRONGTYPE if another type.
func Open(tx *store.Tx, key []byte) (*Filter, error) {
	c, err := tx.Open(key, codec.TypeBloom, false)
	if err != nil || c == nil {
		return nil, err
	}
	fixed, ok, err := c.Get(codec.BloomHeaderField)
	if err != nil {
		return nil, err
	}
	n := FixedLinks(fixed)
	if !ok || n == 0 || n > maxLinks {
		return nil, codec.ErrCorrupt
	}
	hdr := append(make([]byte, 0, headerFixed+headerLink*n), fixed...)
	for i := range n {
		v, ok, err := c.Get(codec.BloomLinkField(uint32(i)))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, codec.ErrCorrupt
		}
		hdr = append(hdr, v...)
	}
	ch, err := DecodeChain(hdr)
	if err != nil {
		return nil, codec.ErrCorrupt
	}
	return &Filter{c: c, Chain: ch, stored: len(ch.Links)}, nil
}

// Create makes key an empty filter with chain (the key must not exist).
func Create(tx *store.Tx, key []byte, chain Chain) (*Filter, error) {
	c, err := tx.Open(key, codec.TypeBloom, true)
	if err != nil {
		return nil, err
	}
	f := &Filter{c: c, Chain: chain}
	return f, f.save()
}

// save writes the header (its fixed part, the part of the sub-filter
// that was newest when the filter was opened, which counts the items
// added to it, and those of sub-filters added since; older ones never
// change) and the meta's item count.
func (f *Filter) save() error {
	if err := f.c.Put(codec.BloomHeaderField, f.Chain.EncodeFixed()); err != nil {
		return err
	}
	for i := max(f.stored-1, 0); i < len(f.Chain.Links); i++ {
		if err := f.c.Put(codec.BloomLinkField(uint32(i)), f.Chain.EncodeLink(i)); err != nil {
			return err
		}
	}
	f.stored = len(f.Chain.Links)
	return f.c.Grow(int64(f.Chain.Items) - f.c.Size())
}

// chunk returns the chunk of link l holding byte at (zeros if never
// written).
func (f *Filter) chunk(l uint32, at uint64) ([]byte, chunkRef, error) {
	ref := chunkRef{l, at / codec.BloomChunk}
	if b, ok := f.chunks[ref]; ok {
		return b, ref, nil
	}
	size := min(uint64(codec.BloomChunk), f.Chain.Links[l].Bytes-ref.index*codec.BloomChunk)
	v, ok, err := f.c.Get(codec.BloomChunkField(l, ref.index))
	if err != nil {
		return nil, ref, err
	}
	b := make([]byte, size)
	if ok {
		copy(b, v)
	}
	if f.chunks == nil {
		f.chunks = map[chunkRef][]byte{}
	}
	f.chunks[ref] = b
	return b, ref, nil
}

// test reports whether bit x of link l is set, setting it when set is
// true (then reporting whether it was).
func (f *Filter) test(l uint32, x uint64, set bool) (bool, error) {
	b, ref, err := f.chunk(l, x>>3)
	if err != nil {
		return false, err
	}
	i, mask := x>>3-ref.index*codec.BloomChunk, byte(1)<<(x%8)
	if b[i]&mask != 0 {
		return true, nil
	}
	if set {
		b[i] |= mask
		if f.dirty == nil {
			f.dirty = map[chunkRef]bool{}
		}
		f.dirty[ref] = true
	}
	return false, nil
}

// inLink reports whether every bit of h is set in link l.
func (f *Filter) inLink(l uint32, h hashPair) (bool, error) {
	lk := f.Chain.Links[l]
	for i := range uint64(lk.Hashes) {
		ok, err := f.test(l, lk.position(h, i), false)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// Exists reports whether item may have been added.
func (f *Filter) Exists(item []byte) (bool, error) {
	return f.present(hashItem(item, f.Chain.Options))
}

// present reports whether every bit of h is set in some sub-filter
// (newest first, as RedisBloom checks).
func (f *Filter) present(h hashPair) (bool, error) {
	for l := len(f.Chain.Links) - 1; l >= 0; l-- {
		if ok, err := f.inLink(uint32(l), h); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// Add adds item: true if it was not (as far as the filter can tell)
// there before. A full newest sub-filter gets a successor first, or
// ErrFull for a non-scaling filter. Changes are written by Flush.
func (f *Filter) Add(item []byte) (bool, error) {
	h := hashItem(item, f.Chain.Options)
	if ok, err := f.present(h); err != nil || ok {
		return false, err
	}
	cur := &f.Chain.Links[len(f.Chain.Links)-1]
	if cur.Items >= cur.Capacity {
		if f.Chain.Options&OptNoScaling != 0 {
			return false, ErrFull
		}
		exp := uint64(f.Chain.Expansion)
		if exp == 0 || cur.Capacity > math.MaxUint64/exp {
			return false, ErrCannotGrow
		}
		next, err := newLink(cur.Capacity*exp, cur.Error*tightening, f.Chain.Options)
		if err != nil {
			return false, ErrCannotGrow
		}
		f.Chain.Links = append(f.Chain.Links, next)
		f.changed = true
	}
	l := uint32(len(f.Chain.Links) - 1)
	lk := f.Chain.Links[l]
	unset := false
	for i := range uint64(lk.Hashes) {
		was, err := f.test(l, lk.position(h, i), true)
		if err != nil {
			return false, err
		}
		unset = unset || !was
	}
	if !unset {
		return false, nil
	}
	f.Chain.Links[l].Items++
	f.Chain.Items++
	f.changed = true
	return true, nil
}

// Flush writes the chunks and header changed since Open or Create
// (nothing when nothing changed: BF.ADD of items already there).
func (f *Filter) Flush() error {
	if len(f.dirty) == 0 && !f.changed {
		return nil
	}
	for ref := range f.dirty {
		if err := f.c.Put(codec.BloomChunkField(ref.link, ref.index), f.chunks[ref]); err != nil {
			return err
		}
	}
	f.dirty, f.changed = nil, false
	return f.save()
}

// ScanDump returns SCANDUMP's step at iter: iter 0 gives the header and
// next iterator 1; from 1 on, up to max bytes of the sub-filters' bits
// from byte iter-1 and the next iterator; past the end, 0 and no data.
func (f *Filter) ScanDump(iter int64, max uint64) (int64, []byte, error) {
	if iter == 0 {
		return 1, f.Chain.Encode(), nil
	}
	if iter < 1 {
		return 0, nil, nil
	}
	pos := uint64(iter - 1)
	var seek uint64
	for l, lk := range f.Chain.Links {
		if pos >= seek+lk.Bytes {
			seek += lk.Bytes
			continue
		}
		off := pos - seek
		n := min(max, lk.Bytes-off)
		bits, err := f.bitsRange(l, off, n)
		if err != nil {
			return 0, nil, err
		}
		return iter + int64(n), bits, nil
	}
	return 0, nil, nil
}

// LoadChunk writes data, the SCANDUMP chunk that ended at iterator iter
// (the one SCANDUMP returned with it), into the sub-filters.
func (f *Filter) LoadChunk(iter int64, data []byte) error {
	if iter <= 0 || iter < int64(len(data)) {
		return ErrBadChunk
	}
	pos := uint64(iter) - uint64(len(data)) - 1
	var seek uint64
	for l, lk := range f.Chain.Links {
		if pos >= seek+lk.Bytes {
			seek += lk.Bytes
			continue
		}
		off := pos - seek
		if uint64(len(data)) > lk.Bytes-off {
			return ErrChunkTooBig
		}
		for at := off; len(data) > 0; {
			b, ref, err := f.chunk(uint32(l), at)
			if err != nil {
				return err
			}
			from := at - ref.index*codec.BloomChunk
			n := copy(b[from:], data)
			if f.dirty == nil {
				f.dirty = map[chunkRef]bool{}
			}
			f.dirty[ref] = true
			data = data[n:]
			at += uint64(n)
		}
		return nil
	}
	return ErrNoLink
}

// LoadChunk's errors, as RedisBloom words them.
var (
	ErrBadChunk    = errors.New("received bad data")
	ErrNoLink      = errors.New("invalid offset - no link found")
	ErrChunkTooBig = errors.New("invalid chunk - Too big for current filter")
)

// Bits returns all of sub-filter l's bits.
func (f *Filter) Bits(l int) ([]byte, error) { return f.bitsRange(l, 0, f.Chain.Links[l].Bytes) }

// bitsRange returns n bytes of sub-filter l's bits from byte off, read in
// one scan of the chunks holding them.
func (f *Filter) bitsRange(l int, off, n uint64) ([]byte, error) {
	out := make([]byte, n)
	first, last := off/codec.BloomChunk, (off+n+codec.BloomChunk-1)/codec.BloomChunk
	place := func(index uint64, b []byte) {
		at := index * codec.BloomChunk
		from, to := max(at, off), min(at+uint64(len(b)), off+n)
		if from < to {
			copy(out[from-off:to-off], b[from-at:to-at])
		}
	}
	err := f.c.Scan(codec.BloomChunkField(uint32(l), first), codec.BloomChunkField(uint32(l), last), false, 0,
		func(field, v []byte) (bool, error) {
			if len(field) != 13 {
				return false, codec.ErrCorrupt
			}
			place(binary.BigEndian.Uint64(field[5:]), v)
			return true, nil
		})
	if err != nil {
		return nil, err
	}
	// Chunks this operation changed and has not written yet.
	for ref, b := range f.chunks {
		if ref.link == uint32(l) && f.dirty[ref] {
			place(ref.index, b)
		}
	}
	return out, nil
}

// CreateFrom makes key a filter with chain and each sub-filter's bits
// (RESTORE); the key must not exist. Chunks of zeros are not written.
func CreateFrom(tx *store.Tx, key []byte, chain Chain, bits [][]byte) error {
	f, err := Create(tx, key, chain)
	if err != nil {
		return err
	}
	for l, b := range bits {
		for i := uint64(0); i*codec.BloomChunk < uint64(len(b)); i++ {
			c := b[i*codec.BloomChunk : min(uint64(len(b)), (i+1)*codec.BloomChunk)]
			if allZero(c) {
				continue
			}
			if err := f.c.Put(codec.BloomChunkField(uint32(l), i), c); err != nil {
				return err
			}
		}
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
