package rhll

import (
	"encoding/binary"
	"errors"
	"github.com/rekv/rekv/actors/types/murmur"
	"math"
	"math/bits"
	"strconv"
)

// Redis's HLL parameters.
const (
	P             = 14
	Registers     = 1 << P
	regBits       = 6
	regMax        = 1<<regBits - 1
	HeaderSize    = 16
	DenseSize     = HeaderSize + (Registers*regBits+7)/8
	encDense      = 0
	encSparse     = 1
	encRaw        = 255 // registers one byte each; only for counting merges
	sparseValMax  = 32
	sparseValLen  = 4
	sparseZeroMax = 64
	sparseXZMax   = 16384
	alphaInf      = 0.721347520444481703680
	hashSeed      = 0xadc83b19
	staleBit      = 1 << 7 // in card[7]
	// SparseMaxBytes is hll-sparse-max-bytes' default.
	SparseMaxBytes = 3000
)

// ErrNotHLL is a string that is not an HLL; ErrCorrupt an HLL whose
// registers do not decode.
var (
	ErrNotHLL  = errors.New("rhll: not a HyperLogLog")
	ErrCorrupt = errors.New("rhll: corrupted HyperLogLog")
)

// New returns an empty sparse HLL: every register in one XZERO run, the
// cached count valid and 0.
func New() []byte {
	b := make([]byte, HeaderSize, HeaderSize+2)
	copy(b, "HYLL")
	b[4] = encSparse
	n := Registers - 1
	return append(b, 0x40|byte(n>>8), byte(n))
}

// Check reports whether v is an HLL Redis would accept.
func Check(v []byte) error {
	if len(v) < HeaderSize {
		return ErrNotHLL
	}
	return CheckHeader(v[:HeaderSize], int64(len(v)))
}

// CheckHeader is Check from the header and the value's length.
func CheckHeader(h []byte, size int64) error {
	if size < HeaderSize || string(h[:4]) != "HYLL" || h[4] > encSparse {
		return ErrNotHLL
	}
	if h[4] == encDense && size != DenseSize {
		return ErrNotHLL
	}
	return nil
}

// Stale marks the cached count out of date.
func Stale(v []byte) { v[15] |= staleBit }

// Cached returns the cached count, if valid.
func Cached(v []byte) (uint64, bool) {
	if v[15]&staleBit != 0 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(v[8:16]), true
}

// SetCached stores count as the cached count.
func SetCached(v []byte, count uint64) { binary.LittleEndian.PutUint64(v[8:16], count) }

// hash is MurmurHash64A, which Redis uses with seed 0xadc83b19.
func hash(data []byte) uint64 { return murmur.Hash64A(data, hashSeed) }

// position returns the register an element lands in and the length of
// the run of zero bits after it (plus one), as Redis's hllPatLen.
func position(elem []byte) (int, uint8) {
	h := hash(elem)
	idx := int(h & (Registers - 1))
	h >>= P
	h |= 1 << (64 - P) // the count stops at 64-P+1
	return idx, uint8(bits.TrailingZeros64(h) + 1)
}

// Add adds elem to the HLL v and returns the new value and whether a
// register changed. v may be modified in place.
func Add(v []byte, elem []byte) ([]byte, bool, error) {
	idx, count := position(elem)
	return Set(v, idx, count)
}

// Set raises register idx to count (if higher) and returns the new value
// and whether it changed.
func Set(v []byte, idx int, count uint8) ([]byte, bool, error) {
	if v[4] == encDense {
		return v, denseSet(v[HeaderSize:], idx, count), nil
	}
	return sparseSet(v, idx, count)
}

func denseGet(regs []byte, i int) uint8 {
	bit := i * regBits
	b, fb := bit/8, uint(bit%8)
	x := uint16(regs[b]) >> fb
	if b+1 < len(regs) {
		x |= uint16(regs[b+1]) << (8 - fb)
	}
	return uint8(x & regMax)
}

func denseSet(regs []byte, i int, count uint8) bool {
	if count <= denseGet(regs, i) {
		return false
	}
	bit := i * regBits
	b, fb := bit/8, uint(bit%8)
	regs[b] &^= byte(regMax << fb)
	regs[b] |= byte(uint16(count) << fb)
	if b+1 < len(regs) {
		regs[b+1] &^= byte(regMax >> (8 - fb))
		regs[b+1] |= byte(uint16(count) >> (8 - fb))
	}
	return true
}

// Sparse opcodes.
func isZero(c byte) bool  { return c&0xc0 == 0 }
func isXZero(c byte) bool { return c&0xc0 == 0x40 }
func valValue(c byte) int { return int(c>>2&0x1f) + 1 }
func valLen(c byte) int   { return int(c&0x3) + 1 }
func zeroOp(n int) []byte { return []byte{byte(n - 1)} }
func xzeroOp(n int) []byte {
	n--
	return []byte{0x40 | byte(n>>8), byte(n)}
}
func valOp(v, n int) byte { return 0x80 | byte(v-1)<<2 | byte(n-1) }

// zeros encodes a run of n zero registers the way Redis does.
func zeros(n int) []byte {
	if n > sparseZeroMax {
		return xzeroOp(n)
	}
	return zeroOp(n)
}

// opAt decodes the opcode at p: its run length and byte length.
func opAt(s []byte, p int) (span, size int) {
	switch c := s[p]; {
	case isZero(c):
		return int(c&0x3f) + 1, 1
	case isXZero(c):
		if p+1 >= len(s) {
			return 0, 0
		}
		return (int(c&0x3f)<<8 | int(s[p+1])) + 1, 2
	default:
		return valLen(c), 1
	}
}

// sparseSet is Redis's hllSparseSet.
func sparseSet(v []byte, idx int, count uint8) ([]byte, bool, error) {
	if count > sparseValMax {
		return promoteSet(v, idx, count)
	}
	// Step 1: the opcode whose run holds idx.
	p, first, prev, span, size := HeaderSize, 0, -1, 0, 0
	for p < len(v) {
		span, size = opAt(v, p)
		if size == 0 {
			return nil, false, ErrCorrupt
		}
		if idx <= first+span-1 {
			break
		}
		prev = p
		p += size
		first += span
	}
	if span == 0 || p >= len(v) {
		return nil, false, ErrCorrupt
	}
	c := v[p]
	val := !isZero(c) && !isXZero(c)
	// Step 2: the cases changing the opcode in place.
	if val {
		if valValue(c) >= int(count) {
			return v, false, nil
		}
		if span == 1 {
			v[p] = valOp(int(count), 1)
			return mergeValues(v, prev), true, nil
		}
	}
	if isZero(c) && span == 1 {
		v[p] = valOp(int(count), 1)
		return mergeValues(v, prev), true, nil
	}
	// The general case: the run splits into up to three.
	last := first + span - 1
	var seq []byte
	if !val {
		if idx != first {
			seq = append(seq, zeros(idx-first)...)
		}
		seq = append(seq, valOp(int(count), 1))
		if idx != last {
			seq = append(seq, zeros(last-idx)...)
		}
	} else {
		cur := valValue(c)
		if idx != first {
			seq = append(seq, valOp(cur, idx-first))
		}
		seq = append(seq, valOp(int(count), 1))
		if idx != last {
			seq = append(seq, valOp(cur, last-idx))
		}
	}
	// Step 3: substitute it, unless the HLL grows too long for sparse.
	if delta := len(seq) - size; delta > 0 && len(v)+delta > SparseMaxBytes {
		return promoteSet(v, idx, count)
	}
	out := make([]byte, 0, len(v)-size+len(seq))
	out = append(append(append(out, v[:p]...), seq...), v[p+size:]...)
	return mergeValues(out, prev), true, nil
}

// mergeValues is step 4 of Redis's update: from the opcode before the
// changed one, over at most five opcodes, neighbouring VAL opcodes of the
// same value merge when their lengths fit one opcode.
func mergeValues(v []byte, prev int) []byte {
	p := HeaderSize
	if prev >= 0 {
		p = prev
	}
	for scan := 5; p < len(v) && scan > 0; scan-- {
		c := v[p]
		if isXZero(c) {
			p += 2
			continue
		}
		if isZero(c) {
			p++
			continue
		}
		if p+1 < len(v) && !isZero(v[p+1]) && !isXZero(v[p+1]) && valValue(c) == valValue(v[p+1]) {
			if n := valLen(c) + valLen(v[p+1]); n <= sparseValLen {
				v[p+1] = valOp(valValue(c), n)
				v = append(v[:p], v[p+1:]...)
				continue // try again with the merged opcode's right neighbour
			}
		}
		p++
	}
	return v
}

// promoteSet converts v to dense and sets the register there.
func promoteSet(v []byte, idx int, count uint8) ([]byte, bool, error) {
	d, err := ToDense(v)
	if err != nil {
		return nil, false, err
	}
	denseSet(d[HeaderSize:], idx, count)
	return d, true, nil
}

// ToDense returns v in the dense encoding (v itself if it is dense). The
// header, cached count included, is kept.
func ToDense(v []byte) ([]byte, error) {
	if v[4] == encDense {
		return v, nil
	}
	d := make([]byte, DenseSize)
	copy(d, v[:HeaderSize])
	d[4] = encDense
	i := 0
	err := eachRun(v, func(val, n int) {
		for k := 0; k < n && val > 0; k++ {
			denseSet(d[HeaderSize:], i+k, uint8(val))
		}
		i += n
	})
	return d, err
}

// eachRun calls fn for each run of a sparse HLL's registers: its value
// and length. The runs must cover exactly every register.
func eachRun(v []byte, fn func(val, n int)) error {
	total := 0
	for p := HeaderSize; p < len(v); {
		span, size := opAt(v, p)
		if size == 0 {
			return ErrCorrupt
		}
		val := 0
		if c := v[p]; !isZero(c) && !isXZero(c) {
			val = valValue(c)
		}
		if total+span > Registers {
			return ErrCorrupt
		}
		fn(val, span)
		total += span
		p += size
	}
	if total != Registers {
		return ErrCorrupt
	}
	return nil
}

// Merge raises max[i] to every register i of v (max has Registers bytes).
func Merge(max []byte, v []byte) error {
	if v[4] == encDense {
		regs := v[HeaderSize:]
		for i := range Registers {
			if r := denseGet(regs, i); r > max[i] {
				max[i] = r
			}
		}
		return nil
	}
	i := 0
	return eachRun(v, func(val, n int) {
		for k := 0; k < n; k++ {
			if uint8(val) > max[i+k] {
				max[i+k] = uint8(val)
			}
		}
		i += n
	})
}

// Count estimates the cardinality of v (Redis's hllCount).
func Count(v []byte) (uint64, error) {
	var histo [64]int
	if v[4] == encDense {
		regs := v[HeaderSize:]
		for i := range Registers {
			histo[denseGet(regs, i)]++
		}
	} else if err := eachRun(v, func(val, n int) { histo[val] += n }); err != nil {
		return 0, err
	}
	return estimate(&histo), nil
}

// CountRegisters estimates the cardinality of raw registers (a merge).
func CountRegisters(regs []byte) uint64 {
	var histo [64]int
	for _, r := range regs {
		histo[r]++
	}
	return estimate(&histo)
}

// estimate is Otmar Ertl's estimator over the register histogram, as
// Redis computes it.
func estimate(histo *[64]int) uint64 {
	const m = float64(Registers)
	const q = 64 - P
	z := m * tau((m-float64(histo[q+1]))/m)
	for j := q; j >= 1; j-- {
		z += float64(histo[j])
		z *= 0.5
	}
	z += m * sigma(float64(histo[0])/m)
	return uint64(math.Round(alphaInf * m * m / z))
}

func sigma(x float64) float64 {
	if x == 1 {
		return math.Inf(1)
	}
	y, z := 1.0, x
	for {
		x *= x
		prev := z
		z += x * y
		y += y
		if z == prev {
			return z
		}
	}
}

func tau(x float64) float64 {
	if x == 0 || x == 1 {
		return 0
	}
	y, z := 1.0, 1-x
	for {
		x = math.Sqrt(x)
		prev := z
		y *= 0.5
		d := 1 - x
		z -= d * d * y
		if z == prev {
			return z / 3
		}
	}
}

// IsDense reports whether v is in the dense encoding.
func IsDense(v []byte) bool { return v[4] == encDense }

// Position returns the register an element lands in and the value it
// offers that register.
func Position(elem []byte) (int, uint8) { return position(elem) }

// RegisterOffset is the offset, in a dense HLL's value, of the first byte
// holding register idx; the register spans at most that byte and the next.
func RegisterOffset(idx int) int64 { return int64(HeaderSize + idx*regBits/8) }

// SetInWindow raises register idx to count in w, the bytes of a dense HLL
// from RegisterOffset(idx) on (two of them, or one at the very end), and
// reports whether it changed.
func SetInWindow(w []byte, idx int, count uint8) bool {
	fb := uint((idx * regBits) % 8)
	x := uint16(w[0]) >> fb
	if len(w) > 1 {
		x |= uint16(w[1]) << (8 - fb)
	}
	if uint8(x&regMax) >= count {
		return false
	}
	w[0] &^= byte(regMax << fb)
	w[0] |= byte(uint16(count) << fb)
	if len(w) > 1 {
		w[1] &^= byte(regMax >> (8 - fb))
		w[1] |= byte(uint16(count) >> (8 - fb))
	}
	return true
}

// IsSparse reports whether v is in the sparse encoding.
func IsSparse(v []byte) bool { return v[4] == encSparse }

// DenseRegisters returns every register of dense HLL v (PFDEBUG GETREG).
func DenseRegisters(v []byte) []uint8 {
	regs := v[HeaderSize:]
	out := make([]uint8, Registers)
	for i := range out {
		out[i] = denseGet(regs, i)
	}
	return out
}

// Decode describes sparse HLL v's opcodes as Redis's PFDEBUG DECODE
// does: "z:<run>" (ZERO), "Z:<run>" (XZERO), "v:<value>,<run>" (VAL),
// space-separated.
func Decode(v []byte) (string, error) {
	var b []byte
	for p := HeaderSize; p < len(v); {
		span, size := opAt(v, p)
		if size == 0 {
			return "", ErrCorrupt
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		switch c := v[p]; {
		case isZero(c):
			b = append(b, "z:"...)
			b = strconv.AppendInt(b, int64(span), 10)
		case isXZero(c):
			b = append(b, "Z:"...)
			b = strconv.AppendInt(b, int64(span), 10)
		default:
			b = append(b, "v:"...)
			b = strconv.AppendInt(b, int64(valValue(c)), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(span), 10)
		}
		p += size
	}
	return string(b), nil
}
