package store

import (
	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Cursors maps SCAN cursor numbers to the key where the scan resumes.
// Clients see cursors as integers, so positions live here, bounded by an
// LRU; a cursor that was evicted ends its scan. Not safe for concurrent use.
type Cursors struct {
	lru  *simplelru.LRU[uint64, cursor]
	next uint64
}

type cursor struct {
	db  int
	key []byte
}

// NewCursors returns a store holding at most size cursors.
func NewCursors(size int) *Cursors {
	lru, err := simplelru.NewLRU[uint64, cursor](max(size, 1), nil)
	if err != nil {
		panic(err) // unreachable: size is positive
	}
	return &Cursors{lru: lru}
}

// Save records a resume position and returns its cursor (never 0).
func (c *Cursors) Save(db int, key []byte) uint64 {
	c.next++
	if c.next == 0 {
		c.next = 1
	}
	c.lru.Add(c.next, cursor{db: db, key: append([]byte(nil), key...)})
	return c.next
}

// Load returns the position of cursor id in db, or ok false if unknown.
func (c *Cursors) Load(db int, id uint64) (key []byte, ok bool) {
	cur, ok := c.lru.Get(id)
	if !ok || cur.db != db {
		return nil, false
	}
	return cur.key, true
}
