package rcms

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/chunked"
	"github.com/rekv/rekv/actors/types/murmur"
	"github.com/rekv/rekv/codec"
)

// Sketch is a count-min sketch key open in a transaction.
type Sketch struct {
	c            *store.Coll
	Width, Depth uint64
	cells        *chunked.Bytes
}

// newSketch returns the sketch of c with those dimensions.
func newSketch(c *store.Coll, width, depth uint64) *Sketch {
	return &Sketch{c: c, Width: width, Depth: depth, cells: chunked.New(c, codec.CMSChunk, width*depth*4, codec.CMSChunkField)}
}

// CellMax is a counter's largest value.
const CellMax = math.MaxUint32

// ErrOverflow is an increment or merge a counter cannot hold.
var ErrOverflow = errors.New("counter overflow")

// MaxCells bounds a sketch's counters (width x depth): 2^32 counters are
// 16 GiB, more than any sketch needs.
const MaxCells = 1 << 32

// Dims returns the width and depth RedisBloom chooses for an
// overestimation error and a probability of exceeding it
// (CMS_DimFromProb, with its single-precision logarithms).
func Dims(errRate, prob float64) (width, depth uint64) {
	width = uint64(math.Ceil(2 / errRate))
	depth = uint64(math.Ceil(float64(float32(math.Log10(float64(float32(prob))))) /
		float64(float32(math.Log10(0.5)))))
	return width, depth
}

// Open returns key's sketch: nil if missing, WRONGTYPE if another type.
func Open(tx *store.Tx, key []byte) (*Sketch, error) {
	c, err := tx.Open(key, codec.TypeCMS, false)
	if err != nil || c == nil {
		return nil, err
	}
	v, ok, err := c.Get(codec.CMSHeaderField)
	if err != nil {
		return nil, err
	}
	if !ok || len(v) != 16 {
		return nil, codec.ErrCorrupt
	}
	w, d := binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:])
	if w == 0 || d == 0 || w > MaxCells/d {
		return nil, codec.ErrCorrupt
	}
	return newSketch(c, w, d), nil
}

// Create makes key an empty width x depth sketch (the key must not
// exist; the dimensions are checked by the caller).
func Create(tx *store.Tx, key []byte, width, depth uint64) (*Sketch, error) {
	c, err := tx.Open(key, codec.TypeCMS, true)
	if err != nil {
		return nil, err
	}
	h := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, width), depth)
	if err := c.Put(codec.CMSHeaderField, h); err != nil {
		return nil, err
	}
	return newSketch(c, width, depth), c.Grow(0)
}

// Count is the total of every increment.
func (s *Sketch) Count() uint64 { return uint64(s.c.Size()) }

// Cell returns counter i (row-major).
func (s *Sketch) Cell(i uint64) (uint32, error) {
	b, err := s.cells.Read(i*4, 4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (s *Sketch) setCell(i uint64, v uint32) error {
	return s.cells.Write(i*4, binary.LittleEndian.AppendUint32(nil, v))
}

// cellOf returns item's counter in row r.
func (s *Sketch) cellOf(item []byte, r uint64) uint64 {
	return uint64(murmur.Hash2(item, uint32(r)))%s.Width + r*s.Width
}

// IncrBy adds n to item's counters and returns its new estimate; a
// counter that would pass CellMax stays at it, and the estimate is then
// ErrOverflow's (RedisBloom's "INCRBY overflow").
func (s *Sketch) IncrBy(item []byte, n uint64) (uint64, error) {
	est := uint64(math.MaxUint64)
	for r := range s.Depth {
		i := s.cellOf(item, r)
		v, err := s.Cell(i)
		if err != nil {
			return 0, err
		}
		nv := uint64(v) + n
		if nv > CellMax {
			nv = CellMax
		}
		if err := s.setCell(i, uint32(nv)); err != nil {
			return 0, err
		}
		est = min(est, nv)
	}
	if err := s.c.Grow(int64(n)); err != nil {
		return 0, err
	}
	if est == CellMax {
		return est, ErrOverflow
	}
	return est, nil
}

// Query returns item's estimate.
func (s *Sketch) Query(item []byte) (uint64, error) {
	est := uint64(math.MaxUint64)
	for r := range s.Depth {
		v, err := s.Cell(s.cellOf(item, r))
		if err != nil {
			return 0, err
		}
		est = min(est, uint64(v))
	}
	return est, nil
}

// Merge sets s to the weighted sum of srcs (same dimensions; s may be
// one of them), its total to the weighted sum of theirs: ErrOverflow,
// and nothing changed, when a counter or the total leaves its range.
func (s *Sketch) Merge(srcs []*Sketch, weights []int64) error {
	cells := s.Width * s.Depth
	out := make([]uint32, cells)
	for i := range cells {
		var sum int64
		for k, src := range srcs {
			v, err := src.Cell(i)
			if err != nil {
				return err
			}
			p, ok := mul(int64(v), weights[k])
			if !ok {
				return ErrOverflow
			}
			if sum, ok = add(sum, p); !ok {
				return ErrOverflow
			}
		}
		if sum < 0 || sum > CellMax {
			return ErrOverflow
		}
		out[i] = uint32(sum)
	}
	var total int64
	for k, src := range srcs {
		p, ok := mul(int64(src.Count()), weights[k])
		if !ok {
			return ErrOverflow
		}
		if total, ok = add(total, p); !ok {
			return ErrOverflow
		}
	}
	if total < 0 {
		return ErrOverflow
	}
	for i, v := range out {
		if err := s.setCell(uint64(i), v); err != nil {
			return err
		}
	}
	return s.c.Grow(total - s.c.Size())
}

func mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

func add(a, b int64) (int64, bool) {
	s := a + b
	return s, (b >= 0) == (s >= a)
}

// Flush writes the changed chunks.
func (s *Sketch) Flush() error { return s.cells.Flush() }

// Cells returns every counter's bytes (DUMP), little-endian, row-major.
func (s *Sketch) Cells() ([]byte, error) { return s.cells.Range(0, s.cells.Size()) }

// CreateFrom makes key a sketch with the given counters and total
// (RESTORE); the key must not exist.
func CreateFrom(tx *store.Tx, key []byte, width, depth, count uint64, cells []byte) error {
	s, err := Create(tx, key, width, depth)
	if err != nil {
		return err
	}
	if err := s.cells.Load(cells); err != nil {
		return err
	}
	return s.c.Grow(int64(count))
}
