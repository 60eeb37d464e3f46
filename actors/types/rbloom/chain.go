package rbloom

import (
	"encoding/binary"
	"errors"
	"math"
)

// Chain options (RedisBloom's BLOOM_OPT_*): a filter made here has
// OptNoRound|OptForce64, plus OptNoScaling when it is non-scaling; the
// others come only with a header loaded from a dump.
const (
	OptNoRound    uint32 = 1
	OptEntsIsBits uint32 = 2
	OptForce64    uint32 = 4
	OptNoScaling  uint32 = 8
)

// tightening is RedisBloom's ERROR_TIGHTENING_RATIO: each new sub-filter
// has half the error rate of the one before.
const tightening = 0.5

// maxHashes bounds a sub-filter's hash count (RedisBloom's
// BLOOM_MAX_HASHES: what the smallest double error rate needs).
const maxHashes = 1075

// Link is one sub-filter.
type Link struct {
	Bytes, Bits uint64
	Items       uint64 // items added to it
	Error, BPE  float64
	Hashes      uint32
	Capacity    uint64 // RedisBloom's entries
	N2          uint8  // bits is 1<<N2 (0: any number of bits)
}

// Chain is a filter's header: its sub-filters, oldest first.
type Chain struct {
	Items     uint64
	Options   uint32
	Expansion uint32
	Links     []Link
}

// ErrBadParams is a capacity or error rate no sub-filter can be made of.
var ErrBadParams = errors.New("bad Bloom filter parameters")

// newLink sizes a sub-filter for capacity items at error rate e, as
// RedisBloom's bloom_init does under options.
func newLink(capacity uint64, e float64, options uint32) (Link, error) {
	if capacity < 1 || !(e > 0 && e < 1) {
		return Link{}, ErrBadParams
	}
	l := Link{Error: e, Capacity: capacity, BPE: math.Abs(-math.Log(e) / 0.480453013918201)}
	var bits uint64
	switch {
	case options&OptEntsIsBits != 0:
		if capacity > 64 {
			return Link{}, ErrBadParams
		}
		l.N2 = uint8(capacity)
		bits = 1 << l.N2
		l.Capacity = uint64(float64(bits) / l.BPE)
	case options&OptNoRound != 0:
		f := float64(capacity) * l.BPE
		if f >= math.MaxUint64/2 {
			return Link{}, ErrBadParams
		}
		bits = max(uint64(f), 1)
	default:
		bn2 := math.Logb(float64(capacity) * l.BPE)
		if bn2 > 63 || math.IsInf(bn2, 1) {
			return Link{}, ErrBadParams
		}
		l.N2 = uint8(bn2 + 1)
		bits = 1 << l.N2
		diff := bits - uint64(float64(capacity)*l.BPE)
		l.Capacity += uint64(float64(diff) / l.BPE)
	}
	if bits%64 != 0 {
		l.Bytes = (bits/64 + 1) * 8
	} else {
		l.Bytes = bits / 8
	}
	l.Bits = l.Bytes * 8
	h := math.Ceil(0.693147180559945 * l.BPE)
	if h > maxHashes {
		return Link{}, ErrBadParams
	}
	l.Hashes = uint32(h)
	return l, nil
}

// NewChain returns the header of an empty filter (RedisBloom's
// SB_NewChain with its options for BF.RESERVE): the first sub-filter
// holds capacity items at half the error rate when the filter scales,
// at the error rate when it does not.
func NewChain(capacity uint64, e float64, expansion uint32, nonScaling bool) (Chain, error) {
	if !(e > 0 && e < 1) {
		return Chain{}, ErrBadParams
	}
	c := Chain{Options: OptNoRound | OptForce64, Expansion: expansion}
	first := e * tightening
	if nonScaling {
		c.Options |= OptNoScaling
		first = e
	}
	l, err := newLink(capacity, first, c.Options)
	if err != nil {
		return Chain{}, err
	}
	c.Links = []Link{l}
	return c, nil
}

// Capacity is the items the chain holds before it must grow (BF.INFO).
func (c Chain) Capacity() uint64 {
	var n uint64
	for _, l := range c.Links {
		n += l.Capacity
	}
	return n
}

// MemUsage is the bytes RedisBloom would allocate for the chain (BF.INFO
// Size: its chain and link structures and the bits).
func (c Chain) MemUsage() uint64 {
	n := uint64(32)
	for _, l := range c.Links {
		n += 64 + l.Bytes
	}
	return n
}

// TotalBytes is the bytes of every sub-filter's bits (SCANDUMP's data).
func (c Chain) TotalBytes() uint64 {
	var n uint64
	for _, l := range c.Links {
		n += l.Bytes
	}
	return n
}

// position returns bit i of an item's hashes in l.
func (l Link) position(h hashPair, i uint64) uint64 {
	x := h.a + i*h.b
	if l.N2 > 0 {
		return x & (1<<l.N2 - 1)
	}
	return x % l.Bits
}

// Header sizes of RedisBloom's SCANDUMP layout (packed, little-endian).
const (
	headerFixed = 8 + 4 + 4 + 4
	headerLink  = 8 + 8 + 8 + 8 + 8 + 4 + 8 + 1
)

// fixedLinks returns how many sub-filters a header's fixed part
// announces (0 if it is not one).
func fixedLinks(fixed []byte) int {
	if len(fixed) != headerFixed {
		return 0
	}
	return int(binary.LittleEndian.Uint32(fixed[8:]))
}

// Encode returns the header in RedisBloom's SCANDUMP layout: items (8),
// filters (4), options (4), expansion (4), then per sub-filter bytes,
// bits, items (8 each), error, bits per element (doubles), hashes (4),
// capacity (8), n2 (1).
func (c Chain) Encode() []byte {
	b := make([]byte, 0, headerFixed+headerLink*len(c.Links))
	b = binary.LittleEndian.AppendUint64(b, c.Items)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.Links)))
	b = binary.LittleEndian.AppendUint32(b, c.Options)
	b = binary.LittleEndian.AppendUint32(b, c.Expansion)
	for _, l := range c.Links {
		b = binary.LittleEndian.AppendUint64(b, l.Bytes)
		b = binary.LittleEndian.AppendUint64(b, l.Bits)
		b = binary.LittleEndian.AppendUint64(b, l.Items)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.Error))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.BPE))
		b = binary.LittleEndian.AppendUint32(b, l.Hashes)
		b = binary.LittleEndian.AppendUint64(b, l.Capacity)
		b = append(b, l.N2)
	}
	return b
}

// ErrBadHeader is a header that is not a valid chain (LOADCHUNK's
// "received bad data").
var ErrBadHeader = errors.New("bad Bloom filter header")

// maxLinks bounds the sub-filters of a loaded header.
const maxLinks = 1000

// DecodeChain parses and checks a header in RedisBloom's layout, as
// RedisBloom checks one it is given to load.
func DecodeChain(b []byte) (Chain, error) {
	if len(b) < headerFixed {
		return Chain{}, ErrBadHeader
	}
	c := Chain{Items: binary.LittleEndian.Uint64(b), Options: binary.LittleEndian.Uint32(b[12:]),
		Expansion: binary.LittleEndian.Uint32(b[16:])}
	n := binary.LittleEndian.Uint32(b[8:])
	if n == 0 || n > maxLinks || len(b) != headerFixed+headerLink*int(n) {
		return Chain{}, ErrBadHeader
	}
	if c.Options&^(OptNoRound|OptEntsIsBits|OptForce64|OptNoScaling) != 0 {
		return Chain{}, ErrBadHeader
	}
	var total uint64
	p := b[headerFixed:]
	for range n {
		l := Link{Bytes: binary.LittleEndian.Uint64(p), Bits: binary.LittleEndian.Uint64(p[8:]),
			Items: binary.LittleEndian.Uint64(p[16:]), Error: math.Float64frombits(binary.LittleEndian.Uint64(p[24:])),
			BPE: math.Float64frombits(binary.LittleEndian.Uint64(p[32:])), Hashes: binary.LittleEndian.Uint32(p[40:]),
			Capacity: binary.LittleEndian.Uint64(p[44:]), N2: p[52]}
		p = p[headerLink:]
		if !(l.Error > 0 && l.Error < 1) || l.N2 > 63 || l.N2 != 0 && l.Bits < 1<<l.N2 || l.Bits == 0 ||
			l.Bits != l.Bytes*8 || l.Hashes == 0 || l.Hashes > maxHashes || float64(l.Hashes) != math.Ceil(0.693147180559945*l.BPE) {
			return Chain{}, ErrBadHeader
		}
		if l.Items > math.MaxUint64-total {
			return Chain{}, ErrBadHeader
		}
		total += l.Items
		c.Links = append(c.Links, l)
	}
	if total != c.Items {
		return Chain{}, ErrBadHeader
	}
	return c, nil
}
