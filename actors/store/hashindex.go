package store

// hashIndex maps key hashes to slot indexes for clockIndex: an open
// addressing table with linear probing, one uint64 per cell (the key's
// tag, 32 bits of its hash, then the slot index + 1; 0 is an empty cell),
// at most half full.
//
// It replaced a Go map from key to slot: a look-up of a cache larger than
// the CPU's caches touched the map's control word, its slot, the key's
// bytes and then the clock slot, each a cache miss; here it touches one
// cell, then the clock slot (and the key's bytes where the slot does not
// hold the key: MetaCache keeps short ones inline). Eight cells share a
// cache line, so a probe past the first cell rarely misses again.
//
// A cell's home is its tag's low bits (tag & mask), so the table can be
// grown and an entry deleted (backward shift: no tombstones) from the
// cells alone, without the keys. The index does not know the keys: a
// tag that matches is only a candidate, which the caller checks against
// the slot's key (two keys sharing a tag are told apart there).
type hashIndex struct {
	cells []uint64
	mask  uint64
	n     int
}

// minIndexCells is the size of a table's first allocation.
const minIndexCells = 64

// tagOf returns the tag of a key whose 64-bit hash is h.
func tagOf(h uint64) uint32 { return uint32(h >> 32) }

func cellOf(tag uint32, slot int) uint64 { return uint64(tag)<<32 | uint64(uint32(slot+1)) }

// len returns the number of entries.
func (x *hashIndex) len() int { return x.n }

// home returns the position of tag's home cell.
func (x *hashIndex) home(tag uint32) uint64 { return uint64(tag) & x.mask }

// slotOf returns the slot index cell c names, or -1 for an empty cell.
func slotOf(c uint64) int { return int(uint32(c)) - 1 }

// homeSlot returns the slot index named by tag's home cell (-1: empty):
// a read ahead of tag's look-up (Tx.Warm), which may name another tag's
// slot. The index must hold entries.
func (x *hashIndex) homeSlot(tag uint32) int { return slotOf(x.cells[x.home(tag)]) }

// seek returns, from position p on, the first cell holding tag: its
// position and slot index, or the empty cell that ends the run and -1.
// The table must not be empty of cells (cap > 0).
func (x *hashIndex) seek(p uint64, tag uint32) (uint64, int) {
	for {
		c := x.cells[p]
		if c == 0 {
			return p, -1
		}
		if uint32(c>>32) == tag {
			return p, slotOf(c)
		}
		p = (p + 1) & x.mask
	}
}

// first returns the first candidate slot for tag (see seek), or -1.
func (x *hashIndex) first(tag uint32) (uint64, int) {
	if x.n == 0 {
		return 0, -1
	}
	return x.seek(x.home(tag), tag)
}

// next returns the candidate after the one at position p (see seek).
func (x *hashIndex) next(p uint64, tag uint32) (uint64, int) {
	return x.seek((p+1)&x.mask, tag)
}

// insert records slot under tag. The caller knows no entry of the same
// key is there.
func (x *hashIndex) insert(tag uint32, slot int) {
	if 2*(x.n+1) > len(x.cells) {
		x.grow()
	}
	x.place(cellOf(tag, slot))
	x.n++
}

// place puts cell c in the first empty cell from its home on.
func (x *hashIndex) place(c uint64) {
	p := x.home(uint32(c >> 32))
	for x.cells[p] != 0 {
		p = (p + 1) & x.mask
	}
	x.cells[p] = c
}

// grow doubles the table (allocates the first one).
func (x *hashIndex) grow() {
	old := x.cells
	x.cells = make([]uint64, max(2*len(old), minIndexCells))
	x.mask = uint64(len(x.cells) - 1)
	for _, c := range old {
		if c != 0 {
			x.place(c)
		}
	}
}

// remove deletes the entry of slot, recorded under tag; it reports
// whether there was one. The cells after it that would no longer be
// reached from their home move back into the gap.
func (x *hashIndex) remove(tag uint32, slot int) bool {
	if x.n == 0 {
		return false
	}
	want := cellOf(tag, slot)
	p := x.home(tag)
	for x.cells[p] != want {
		if x.cells[p] == 0 {
			return false
		}
		p = (p + 1) & x.mask
	}
	// Backward shift: hole is the empty cell; a cell after it moves in
	// unless its home lies after the hole (cyclically, in (hole, q]).
	hole := p
	for q := (p + 1) & x.mask; x.cells[q] != 0; q = (q + 1) & x.mask {
		home := x.home(uint32(x.cells[q] >> 32))
		if (q-home)&x.mask >= (q-hole)&x.mask {
			x.cells[hole] = x.cells[q]
			hole = q
		}
	}
	x.cells[hole] = 0
	x.n--
	return true
}

// reset empties the index and lets go of its table.
func (x *hashIndex) reset() { *x = hashIndex{} }
