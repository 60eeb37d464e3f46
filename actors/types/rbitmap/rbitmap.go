package rbitmap

import (
	"encoding/binary"
	"math/bits"

	"github.com/rekv/rekv/actors/store"
)

// MaxOffset is one past the largest bit offset (512 MiB of bits).
const MaxOffset = int64(512<<20) * 8

// GetBit returns the bit at off (0 past the end).
func GetBit(s *store.Str, off int64) (int, error) {
	b, err := s.Read(off>>3, 1)
	if err != nil || len(b) == 0 {
		return 0, err
	}
	return int(b[0]>>(7-uint(off&7))) & 1, nil
}

// SetBit sets the bit at off to v (0 or 1), growing the string with zero
// bytes as needed, and returns the bit it held. It writes nothing when the
// bit already holds v inside the string (so no event is raised, as Redis).
func SetBit(s *store.Str, off int64, v int) (int, error) {
	b, err := s.Read(off>>3, 1)
	if err != nil {
		return 0, err
	}
	var cur byte
	if len(b) == 1 {
		cur = b[0]
	}
	mask := byte(1) << (7 - uint(off&7))
	old := 0
	if cur&mask != 0 {
		old = 1
	}
	next := cur &^ mask
	if v != 0 {
		next |= mask
	}
	if next == cur && len(b) == 1 && s.Raw() {
		return old, nil // unchanged (an unchanged bit still makes a string raw, as in Redis)
	}
	return old, s.Write(off>>3, []byte{next})
}

// Count returns the number of set bits in the bit range [from, to]
// (inclusive; the caller clamps it to the string).
func Count(s *store.Str, from, to int64) (int64, error) {
	if from > to {
		return 0, nil
	}
	fb, lb := from>>3, to>>3
	var n int64
	var first, last byte
	err := s.Each(fb, lb-fb+1, func(pos int64, b []byte, zero bool) bool {
		if zero {
			return true
		}
		if pos == fb {
			first = b[0]
		}
		if pos+int64(len(b))-1 == lb {
			last = b[len(b)-1]
		}
		n += popcount(b)
		return true
	})
	// Take out the bits of the edge bytes outside the range.
	n -= int64(bits.OnesCount8(first & ^byte(0xff>>uint(from&7))))
	n -= int64(bits.OnesCount8(last & byte(0xff>>uint(to&7+1))))
	return n, err
}

func popcount(b []byte) int64 {
	var n int
	for len(b) >= 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	for _, c := range b {
		n += bits.OnesCount8(c)
	}
	return int64(n)
}

// Pos returns the position of the first bit equal to bit in the bit range
// [from, to] (inclusive, clamped by the caller), or -1 if there is none.
func Pos(s *store.Str, bit int, from, to int64) (int64, error) {
	if from > to {
		return -1, nil
	}
	fb, lb := from>>3, to>>3
	found := int64(-1)
	err := s.Each(fb, lb-fb+1, func(pos int64, b []byte, zero bool) bool {
		if zero && bit == 1 {
			return true
		}
		if zero {
			found = max(pos*8, from)
			return false
		}
		for i := 0; i < len(b); {
			// Skip whole words that cannot hold the bit.
			if i+8 <= len(b) {
				w := binary.BigEndian.Uint64(b[i:])
				if bit == 1 && w == 0 || bit == 0 && w == ^uint64(0) {
					i += 8
					continue
				}
			}
			c := b[i]
			at := (pos + int64(i)) * 8
			if bit == 0 {
				c = ^c
			}
			// Keep only the bits inside [from, to].
			if at < from {
				c &= 0xff >> uint(from-at)
			}
			if at+7 > to {
				c &= ^byte(0xff >> uint(to-at+1))
			}
			if c != 0 {
				found = at + int64(bits.LeadingZeros8(c))
				return false
			}
			i++
		}
		return true
	})
	return found, err
}

// Op is a BITOP operation.
type Op int

// The BITOP operations.
const (
	And Op = iota
	Or
	Xor
	Not
)

// Apply computes op over srcs (NOT takes one) as Redis does: shorter
// strings are zero-padded to the longest. It reads the sources one chunk
// at a time into the result, whose length is the longest source's.
func Apply(op Op, srcs []*store.Str) ([]byte, error) {
	var size int64
	for _, s := range srcs {
		size = max(size, s.Len())
	}
	out := make([]byte, size)
	if op == And || op == Not {
		for i := range out {
			out[i] = 0xff
		}
	}
	for _, s := range srcs {
		if op == And && s.Len() < size {
			clear(out[s.Len():]) // padding zeros clear the tail
		}
		err := s.Each(0, s.Len(), func(pos int64, b []byte, zero bool) bool {
			dst := out[pos : pos+int64(len(b))]
			switch {
			case op == Not:
				for j, c := range b {
					dst[j] = ^c
				}
			case op == And && zero:
				clear(dst)
			case op == And:
				for j, c := range b {
					dst[j] &= c
				}
			case zero: // OR and XOR with zeros change nothing
			case op == Or:
				for j, c := range b {
					dst[j] |= c
				}
			default:
				for j, c := range b {
					dst[j] ^= c
				}
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
