package store

import (
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Cursors maps SCAN-family cursor numbers to the position where the scan
// resumes. Clients see cursors as integers, so positions live here, bounded
// by an LRU; a cursor that was evicted (or used on another db or key) ends
// its scan. Safe for concurrent use.
type Cursors struct {
	mu   sync.Mutex
	lru  *simplelru.LRU[uint64, cursor]
	next uint64
}

type cursor struct {
	scope string
	pos   []byte
}

// NewCursors returns a table holding at most size cursors.
func NewCursors(size int) *Cursors {
	lru, err := simplelru.NewLRU[uint64, cursor](max(size, 1), nil)
	if err != nil {
		panic(err) // unreachable: size is positive
	}
	return &Cursors{lru: lru}
}

// Scope names what a cursor walks: a db's keys (key nil) or one key's
// members.
func Scope(db int, key []byte) string {
	if key == nil {
		return string(rune('0' + db))
	}
	return string(rune('0'+db)) + ":" + string(key)
}

// Save records a resume position and returns its cursor (never 0).
func (c *Cursors) Save(scope string, pos []byte) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	if c.next == 0 {
		c.next = 1
	}
	c.lru.Add(c.next, cursor{scope: scope, pos: append([]byte(nil), pos...)})
	return c.next
}

// Load returns the position of cursor id in scope, or ok false if unknown.
func (c *Cursors) Load(scope string, id uint64) (pos []byte, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.lru.Get(id)
	if !ok || cur.scope != scope {
		return nil, false
	}
	return cur.pos, true
}
