package rbitmap

import "github.com/rekv/rekv/actors/store"

// Field is a BITFIELD integer: Bits wide (1..64 signed, 1..63 unsigned) at
// bit offset Off.
type Field struct {
	Off    int64
	Bits   int
	Signed bool
}

// Overflow is a BITFIELD overflow policy.
type Overflow int

// The overflow policies.
const (
	Wrap Overflow = iota
	Sat
	Fail
)

// Get reads f (zeros past the end of the string), sign-extended when
// signed.
func Get(s *store.Str, f Field) (int64, error) {
	first := f.Off >> 3
	b, err := s.Read(first, (f.Off+int64(f.Bits)-1)>>3-first+1)
	if err != nil {
		return 0, err
	}
	var u uint64
	for i := 0; i < f.Bits; i++ {
		bit := f.Off + int64(i)
		j := bit>>3 - first
		u <<= 1
		if j < int64(len(b)) && b[j]&(0x80>>uint(bit&7)) != 0 {
			u |= 1
		}
	}
	if f.Signed && f.Bits < 64 && u&(1<<(f.Bits-1)) != 0 {
		u |= ^uint64(0) << f.Bits
	}
	return int64(u), nil
}

// Set writes the low f.Bits bits of v at f, growing the string as needed.
func Set(s *store.Str, f Field, v int64) error {
	first := f.Off >> 3
	n := (f.Off+int64(f.Bits)-1)>>3 - first + 1
	cur, err := s.Read(first, n)
	if err != nil {
		return err
	}
	b := make([]byte, n)
	copy(b, cur)
	for i := 0; i < f.Bits; i++ {
		bit := f.Off + int64(i)
		j := bit>>3 - first
		mask := byte(0x80) >> uint(bit&7)
		if uint64(v)>>(f.Bits-1-i)&1 != 0 {
			b[j] |= mask
		} else {
			b[j] &^= mask
		}
	}
	return s.Write(first, b)
}

// Add returns what f holding old becomes after adding incr (SET passes the
// new value as old and 0), under policy p: the value stored, and whether it
// overflowed (with Fail nothing may be stored then).
func Add(f Field, old, incr int64, p Overflow) (int64, bool) {
	if f.Signed {
		return addSigned(old, incr, f.Bits, p)
	}
	v, ovf := addUnsigned(uint64(old), incr, f.Bits, p)
	return int64(v), ovf
}

func addSigned(v, incr int64, bits int, p Overflow) (int64, bool) {
	hi := int64(1)<<(bits-1) - 1
	if bits == 64 {
		hi = int64(^uint64(0) >> 1)
	}
	lo := -hi - 1
	// Go's integer arithmetic wraps, like the two's complement the limits
	// are computed in.
	maxIncr, minIncr := hi-v, lo-v
	switch {
	case v > hi || (bits != 64 && incr > maxIncr) || (v >= 0 && incr > 0 && incr > maxIncr):
		if p == Sat {
			return hi, true
		}
	case v < lo || (bits != 64 && incr < minIncr) || (v < 0 && incr < 0 && incr < minIncr):
		if p == Sat {
			return lo, true
		}
	default:
		return v + incr, false
	}
	// Wrap (and Fail, whose value is not used): keep the low bits, sign
	// extended.
	c := uint64(v) + uint64(incr)
	if bits < 64 {
		if c&(1<<(bits-1)) != 0 {
			c |= ^uint64(0) << bits
		} else {
			c &^= ^uint64(0) << bits
		}
	}
	return int64(c), true
}

func addUnsigned(v uint64, incr int64, bits int, p Overflow) (uint64, bool) {
	hi := uint64(1)<<bits - 1
	maxIncr, minIncr := int64(hi-v), -int64(v)
	switch {
	case v > hi || (incr > 0 && incr > maxIncr):
		if p == Sat {
			return hi, true
		}
	case incr < 0 && incr < minIncr:
		if p == Sat {
			return 0, true
		}
	default:
		return v + uint64(incr), false
	}
	return (v + uint64(incr)) &^ (^uint64(0) << bits), true
}
