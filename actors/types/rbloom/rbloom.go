package rbloom

import (
	"errors"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/chunked"
	"github.com/rekv/rekv/codec"
)

// Filter is a Bloom filter key open in a transaction.
type Filter struct {
	c     *store.Coll
	Chain Chain
	// bits are the sub-filters' bits, made on first use.
	bits []*chunked.Bytes
	// changed is set once the header differs from what is stored;
	// stored is how many sub-filters' headers are.
	changed bool
	stored  int
}

// linkBits returns sub-filter l's bits.
func (f *Filter) linkBits(l uint32) *chunked.Bytes {
	for uint32(len(f.bits)) <= l {
		i := uint32(len(f.bits))
		f.bits = append(f.bits, chunked.New(f.c, codec.BloomChunk, f.Chain.Links[i].Bytes,
			func(x uint64) []byte { return codec.BloomChunkField(i, x) }))
	}
	return f.bits[l]
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
	n := fixedLinks(fixed)
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
	hdr := f.Chain.Encode()
	if err := f.c.Put(codec.BloomHeaderField, hdr[:headerFixed]); err != nil {
		return err
	}
	for i := max(f.stored-1, 0); i < len(f.Chain.Links); i++ {
		if err := f.c.Put(codec.BloomLinkField(uint32(i)), hdr[headerFixed+headerLink*i:headerFixed+headerLink*(i+1)]); err != nil {
			return err
		}
	}
	f.stored = len(f.Chain.Links)
	return f.c.Grow(int64(f.Chain.Items) - f.c.Size())
}

// test reports whether bit x of link l is set, setting it when set is
// true (then reporting whether it was).
func (f *Filter) test(l uint32, x uint64, set bool) (bool, error) {
	bits := f.linkBits(l)
	b, err := bits.Read(x>>3, 1)
	if err != nil {
		return false, err
	}
	mask := byte(1) << (x % 8)
	if b[0]&mask != 0 {
		return true, nil
	}
	if set {
		return false, bits.Write(x>>3, []byte{b[0] | mask})
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
	changed := f.changed
	for _, b := range f.bits {
		changed = changed || b.Changed()
		if err := b.Flush(); err != nil {
			return err
		}
	}
	if !changed {
		return nil
	}
	f.changed = false
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
	l, off, ok := f.locate(uint64(iter - 1))
	if !ok {
		return 0, nil, nil
	}
	n := min(max, f.Chain.Links[l].Bytes-off)
	bits, err := f.linkBits(uint32(l)).Range(off, n)
	if err != nil {
		return 0, nil, err
	}
	return iter + int64(n), bits, nil
}

// locate returns the sub-filter holding byte pos of the bits dumped one
// sub-filter after another, and pos's offset in it.
func (f *Filter) locate(pos uint64) (int, uint64, bool) {
	for l, lk := range f.Chain.Links {
		if pos < lk.Bytes {
			return l, pos, true
		}
		pos -= lk.Bytes
	}
	return 0, 0, false
}

// LoadChunk writes data, the SCANDUMP chunk that ended at iterator iter
// (the one SCANDUMP returned with it), into the sub-filters.
func (f *Filter) LoadChunk(iter int64, data []byte) error {
	if iter <= 0 || iter < int64(len(data)) {
		return ErrBadChunk
	}
	l, off, ok := f.locate(uint64(iter) - uint64(len(data)) - 1)
	switch {
	case !ok:
		return ErrNoLink
	case uint64(len(data)) > f.Chain.Links[l].Bytes-off:
		return ErrChunkTooBig
	}
	return f.linkBits(uint32(l)).Write(off, data)
}

// LoadChunk's errors, as RedisBloom words them.
var (
	ErrBadChunk    = errors.New("received bad data")
	ErrNoLink      = errors.New("invalid offset - no link found")
	ErrChunkTooBig = errors.New("invalid chunk - Too big for current filter")
)

// Bits returns all of sub-filter l's bits.
func (f *Filter) Bits(l int) ([]byte, error) {
	return f.linkBits(uint32(l)).Range(0, f.Chain.Links[l].Bytes)
}

// CreateFrom makes key a filter with chain and each sub-filter's bits
// (RESTORE); the key must not exist. Chunks of zeros are not written.
func CreateFrom(tx *store.Tx, key []byte, chain Chain, bits [][]byte) error {
	f, err := Create(tx, key, chain)
	if err != nil {
		return err
	}
	for l, b := range bits {
		if err := f.linkBits(uint32(l)).Load(b); err != nil {
			return err
		}
	}
	return nil
}
