package rtopk

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/chunked"
	"github.com/rekv/rekv/actors/types/murmur"
	"github.com/rekv/rekv/codec"
)

// Header is a Top-K's parameters and generator state.
type Header struct {
	K, Width, Depth uint32
	Decay           float64
	RNG             uint64
}

const headerLen = 4*3 + 8 + 8

func (h Header) encode() []byte {
	b := make([]byte, 0, headerLen)
	b = binary.BigEndian.AppendUint32(b, h.K)
	b = binary.BigEndian.AppendUint32(b, h.Width)
	b = binary.BigEndian.AppendUint32(b, h.Depth)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(h.Decay))
	return binary.BigEndian.AppendUint64(b, h.RNG)
}

// MaxCells bounds width x depth (2^28 buckets: 2 GiB).
const MaxCells = 1 << 28

// MaxK bounds k.
const MaxK = 1 << 20

// Valid reports whether h describes a Top-K rekv can hold.
func (h Header) Valid() bool {
	return h.K > 0 && h.K <= MaxK && h.Width > 0 && h.Depth > 0 && uint64(h.Width)*uint64(h.Depth) <= MaxCells &&
		h.Decay > 0 && h.Decay < 1
}

// HeapItem is an entry of the heap.
type HeapItem struct {
	FP    uint32
	Count uint32
	Item  []byte // nil: an empty slot
}

// TopK is a Top-K key open in a transaction.
type TopK struct {
	c       *store.Coll
	H       Header
	Heap    []HeapItem // a min-heap on Count, len K
	buckets *chunked.Bytes
	changed bool // the header (generator) or the heap differs from what is stored
}

// newTopK returns the Top-K of c with header h.
func newTopK(c *store.Coll, h Header) *TopK {
	return &TopK{c: c, H: h, buckets: chunked.New(c, codec.TopKChunk, uint64(h.Width)*uint64(h.Depth)*8, codec.TopKChunkField)}
}

// ga is RedisBloom's fingerprint seed.
const ga = 1919

// Open returns key's Top-K: nil if missing, WRONGTYPE if another type.
func Open(tx *store.Tx, key []byte) (*TopK, error) {
	c, err := tx.Open(key, codec.TypeTopK, false)
	if err != nil || c == nil {
		return nil, err
	}
	hv, ok, err := c.Get(codec.TopKHeaderField)
	if err != nil {
		return nil, err
	}
	if !ok || len(hv) != headerLen {
		return nil, codec.ErrCorrupt
	}
	h := Header{K: binary.BigEndian.Uint32(hv), Width: binary.BigEndian.Uint32(hv[4:]), Depth: binary.BigEndian.Uint32(hv[8:]),
		Decay: math.Float64frombits(binary.BigEndian.Uint64(hv[12:])), RNG: binary.BigEndian.Uint64(hv[20:])}
	if !h.Valid() {
		return nil, codec.ErrCorrupt
	}
	t := newTopK(c, h)
	hp, ok, err := c.Get(codec.TopKHeapField)
	if err != nil {
		return nil, err
	}
	if t.Heap, err = decodeHeap(hp, h.K); !ok || err != nil {
		return nil, codec.ErrCorrupt
	}
	return t, nil
}

// Create makes key an empty Top-K with header h (the key must not exist).
func Create(tx *store.Tx, key []byte, h Header) (*TopK, error) {
	c, err := tx.Open(key, codec.TypeTopK, true)
	if err != nil {
		return nil, err
	}
	t := newTopK(c, h)
	t.Heap, t.changed = make([]HeapItem, h.K), true
	return t, t.Flush()
}

func encodeHeap(heap []HeapItem) []byte {
	var b []byte
	for _, e := range heap {
		b = binary.BigEndian.AppendUint32(b, e.FP)
		b = binary.BigEndian.AppendUint32(b, e.Count)
		if e.Item == nil {
			b = binary.BigEndian.AppendUint32(b, math.MaxUint32)
			continue
		}
		b = binary.BigEndian.AppendUint32(b, uint32(len(e.Item)))
		b = append(b, e.Item...)
	}
	return b
}

var errHeap = errors.New("bad heap")

func decodeHeap(b []byte, k uint32) ([]HeapItem, error) {
	heap := make([]HeapItem, 0, k)
	for range k {
		if len(b) < 12 {
			return nil, errHeap
		}
		e := HeapItem{FP: binary.BigEndian.Uint32(b), Count: binary.BigEndian.Uint32(b[4:])}
		n := binary.BigEndian.Uint32(b[8:])
		b = b[12:]
		if n != math.MaxUint32 {
			if uint64(n) > uint64(len(b)) {
				return nil, errHeap
			}
			e.Item = append([]byte{}, b[:n]...)
			b = b[n:]
		}
		heap = append(heap, e)
	}
	if len(b) != 0 {
		return nil, errHeap
	}
	return heap, nil
}

// bucket returns bucket i's fingerprint and count.
func (t *TopK) bucket(i uint64) (uint32, uint32, error) {
	b, err := t.buckets.Read(i*8, 8)
	if err != nil {
		return 0, 0, err
	}
	return binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), nil
}

func (t *TopK) setBucket(i uint64, fp, count uint32) error {
	return t.buckets.Write(i*8, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, fp), count))
}

// random returns the next draw in [0, 1) (splitmix64).
func (t *TopK) random() float64 {
	t.changed = true
	t.H.RNG += 0x9e3779b97f4a7c15
	z := t.H.RNG
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// inHeap returns the heap index of item, or -1.
func (t *TopK) inHeap(fp uint32, item []byte) int {
	for i := range t.Heap {
		e := t.Heap[i]
		if e.Item != nil && e.FP == fp && string(e.Item) == string(item) {
			return i
		}
	}
	return -1
}

// Add counts item incr more times and returns the item it expelled from
// the heap, if any (nil).
func (t *TopK) Add(item []byte, incr uint32) ([]byte, error) {
	fp := murmur.Hash2(item, ga)
	heapMin := t.Heap[0].Count
	at := t.inHeap(fp, item)
	var maxCount uint32
	for r := range uint64(t.H.Depth) {
		i := r*uint64(t.H.Width) + uint64(murmur.Hash2(item, uint32(r))%t.H.Width)
		bfp, count, err := t.bucket(i)
		if err != nil {
			return nil, err
		}
		switch {
		case count == 0:
			bfp, count = fp, incr
		case bfp == fp:
			count = uint32(min(uint64(count)+uint64(incr), math.MaxUint32))
		default:
			for left := incr; left > 0; left-- {
				if t.random() < math.Pow(t.H.Decay, float64(count)) {
					count--
					if count == 0 {
						bfp, count = fp, left
						break
					}
				}
			}
		}
		if bfp == fp {
			maxCount = max(maxCount, count)
		}
		if err := t.setBucket(i, bfp, count); err != nil {
			return nil, err
		}
	}
	if maxCount < heapMin {
		return nil, nil
	}
	t.changed = true
	if at >= 0 {
		t.Heap[at].Count = maxCount
		t.down(at)
		return nil, nil
	}
	expelled := t.Heap[0].Item
	t.Heap[0] = HeapItem{FP: fp, Count: maxCount, Item: append([]byte{}, item...)}
	t.down(0)
	return expelled, nil
}

// down restores the min-heap below i as RedisBloom's heapifyDown does:
// an entry moves below a child of equal count at the first step, below
// smaller ones only after it, which decides which of equal items is
// expelled next.
func (t *TopK) down(i int) {
	h := t.Heap
	n := len(h)
	if n < 2 || (n-2)/2 < i {
		return
	}
	smaller := func(c int) int {
		if c+1 < n && h[c].Count > h[c+1].Count {
			return c + 1
		}
		return c
	}
	c := smaller(2*i + 1)
	if h[c].Count > h[i].Count {
		return
	}
	top := h[i]
	for {
		h[i] = h[c]
		i = c
		if (n-2)/2 < c {
			break
		}
		c = smaller(2*c + 1)
		if h[c].Count >= top.Count {
			break
		}
	}
	h[i] = top
}

// Query reports whether item is in the heap (the top k).
func (t *TopK) Query(item []byte) bool { return t.inHeap(murmur.Hash2(item, ga), item) >= 0 }

// Count returns item's estimated count (RedisBloom's TOPK.COUNT: for an
// item in the heap, only buckets at the heap's minimum or above count).
func (t *TopK) Count(item []byte) (uint32, error) {
	fp := murmur.Hash2(item, ga)
	inHeap, heapMin := t.inHeap(fp, item) >= 0, t.Heap[0].Count
	var res uint32
	for r := range uint64(t.H.Depth) {
		bfp, count, err := t.bucket(r*uint64(t.H.Width) + uint64(murmur.Hash2(item, uint32(r))%t.H.Width))
		if err != nil {
			return 0, err
		}
		if bfp == fp && (!inHeap || count >= heapMin) {
			res = max(res, count)
		}
	}
	return res, nil
}

// List returns the heap's items, largest count first.
func (t *TopK) List() []HeapItem {
	var out []HeapItem
	for _, e := range t.Heap {
		if e.Item != nil {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out
}

// Flush writes the changed buckets, the header and the heap.
func (t *TopK) Flush() error {
	if err := t.buckets.Flush(); err != nil {
		return err
	}
	if !t.changed {
		return nil
	}
	t.changed = false
	if err := t.c.Put(codec.TopKHeaderField, t.H.encode()); err != nil {
		return err
	}
	if err := t.c.Put(codec.TopKHeapField, encodeHeap(t.Heap)); err != nil {
		return err
	}
	return t.c.Grow(0)
}

// Buckets returns every bucket's bytes (DUMP).
func (t *TopK) Buckets() ([]byte, error) { return t.buckets.Range(0, t.buckets.Size()) }

// EncodedHeap returns the heap in its stored encoding (DUMP).
func (t *TopK) EncodedHeap() []byte { return encodeHeap(t.Heap) }

// CreateFrom makes key a Top-K from a dump's parts (RESTORE); the key
// must not exist.
func CreateFrom(tx *store.Tx, key []byte, h Header, buckets, heap []byte) error {
	if !h.Valid() || uint64(len(buckets)) != uint64(h.Width)*uint64(h.Depth)*8 {
		return codec.ErrCorrupt
	}
	hp, err := decodeHeap(heap, h.K)
	if err != nil {
		return codec.ErrCorrupt
	}
	t, err := Create(tx, key, h)
	if err != nil {
		return err
	}
	t.Heap, t.changed = hp, true
	if err := t.buckets.Load(buckets); err != nil {
		return err
	}
	return t.Flush()
}
