package chunked

import (
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// Bytes is one array.
type Bytes struct {
	c      *store.Coll
	field  func(i uint64) []byte
	chunk  uint64
	size   uint64
	chunks map[uint64][]byte
	dirty  map[uint64]bool
}

// New returns the array of size bytes in chunks of chunk bytes, chunk i
// at field(i) of c: a fixed prefix then i, 8 bytes big-endian.
func New(c *store.Coll, chunk, size uint64, field func(i uint64) []byte) *Bytes {
	return &Bytes{c: c, field: field, chunk: chunk, size: size}
}

// Size is the array's length.
func (b *Bytes) Size() uint64 { return b.size }

// at returns the chunk holding byte off and off's index in it.
func (b *Bytes) at(off uint64) ([]byte, uint64, error) {
	i := off / b.chunk
	c, ok := b.chunks[i]
	if !ok {
		v, found, err := b.c.Get(b.field(i))
		if err != nil {
			return nil, 0, err
		}
		c = make([]byte, min(b.chunk, b.size-i*b.chunk))
		if found {
			copy(c, v)
		}
		if b.chunks == nil {
			b.chunks = map[uint64][]byte{}
		}
		b.chunks[i] = c
	}
	return c, off - i*b.chunk, nil
}

// Read returns n bytes at off, to be read and not kept (a view into the
// chunk when they fit in one).
func (b *Bytes) Read(off, n uint64) ([]byte, error) {
	c, o, err := b.at(off)
	if err != nil {
		return nil, err
	}
	if o+n <= uint64(len(c)) {
		return c[o : o+n], nil
	}
	return b.Range(off, n)
}

// Write copies data to off.
func (b *Bytes) Write(off uint64, data []byte) error {
	for len(data) > 0 {
		c, o, err := b.at(off)
		if err != nil {
			return err
		}
		n := copy(c[o:], data)
		if b.dirty == nil {
			b.dirty = map[uint64]bool{}
		}
		b.dirty[off/b.chunk] = true
		data, off = data[n:], off+uint64(n)
	}
	return nil
}

// Range returns a copy of n bytes at off, read with one scan of the
// chunks holding them (and what this operation changed).
func (b *Bytes) Range(off, n uint64) ([]byte, error) {
	out := make([]byte, n)
	place := func(i uint64, c []byte) {
		at := i * b.chunk
		from, to := max(at, off), min(at+uint64(len(c)), off+n)
		if from < to {
			copy(out[from-off:to-off], c[from-at:to-at])
		}
	}
	first, last := off/b.chunk, (off+n+b.chunk-1)/b.chunk
	from, to := b.field(first), b.field(last)
	prefix := len(from) - 8
	err := b.c.Scan(from, to, false, 0, func(field, v []byte) (bool, error) {
		if len(field) != len(from) {
			return false, codec.ErrCorrupt
		}
		place(indexOf(field[prefix:]), v)
		return true, nil
	})
	for i := range b.dirty {
		place(i, b.chunks[i])
	}
	return out, err
}

// indexOf decodes a chunk index: the field's last 8 bytes, big-endian.
func indexOf(b []byte) uint64 {
	var i uint64
	for _, c := range b {
		i = i<<8 | uint64(c)
	}
	return i
}

// Flush writes the changed chunks.
func (b *Bytes) Flush() error {
	for i := range b.dirty {
		if err := b.c.Put(b.field(i), b.chunks[i]); err != nil {
			return err
		}
	}
	b.dirty = nil
	return nil
}

// Changed reports whether a write waits for Flush.
func (b *Bytes) Changed() bool { return len(b.dirty) > 0 }

// Load writes a whole array's bytes from a dump, leaving out the chunks
// that are all zeros (they read as zeros).
func (b *Bytes) Load(data []byte) error {
	for i := uint64(0); i*b.chunk < uint64(len(data)); i++ {
		c := data[i*b.chunk : min(uint64(len(data)), (i+1)*b.chunk)]
		for _, x := range c {
			if x != 0 {
				if err := b.c.Put(b.field(i), c); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// Drop deletes the array's stored chunks.
func (b *Bytes) Drop() error {
	var fields [][]byte
	err := b.c.Scan(b.field(0), b.field((b.size+b.chunk-1)/b.chunk), false, 0, func(field, _ []byte) (bool, error) {
		fields = append(fields, append([]byte(nil), field...))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, f := range fields {
		if err := b.c.Remove(f); err != nil {
			return err
		}
	}
	b.chunks, b.dirty = nil, nil
	return nil
}
