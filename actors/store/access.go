package store

import "github.com/cespare/xxhash/v2"

// AccessClock remembers when keys were last read or written, for OBJECT
// IDLETIME. It is owned by one shard (beside its MetaCache) and is not
// safe for concurrent use.
//
// It keeps two generations of at most size keys each: when the current
// one fills, it becomes the previous one and the previous one is dropped.
// A key found in neither was last accessed no later than floor — the time
// the dropped generation stopped taking accesses, or the clock's start —
// so its idle time is reported as at least that old, the way Redis counts
// from load time for keys untouched since a restart. Accesses on other
// nodes sharing the store are not seen.
//
// Keys are remembered by a 64-bit hash of their meta key, not the key
// itself: less memory, and no string to compare. Two keys sharing a hash
// (with n keys remembered, a chance of about n²/2⁶⁵ that any two do)
// would only share an idle time.
type AccessClock struct {
	cur, prev map[uint64]int64 // hash of the meta key -> unix ms
	size      int
	floor     int64
	rotated   int64 // when cur started taking accesses
}

// NewAccessClock returns a clock of two generations of size keys,
// started at now (unix ms).
func NewAccessClock(size int, now int64) *AccessClock {
	size = max(size, 1)
	return &AccessClock{cur: make(map[uint64]int64), size: size, floor: now, rotated: now}
}

// touch records an access of mk at now.
func (a *AccessClock) touch(mk string, now int64) {
	h := xxhash.Sum64String(mk)
	if len(a.cur) >= a.size { // full: a new key starts a generation
		if _, ok := a.cur[h]; !ok {
			a.floor = a.rotated
			a.prev, a.cur, a.rotated = a.cur, make(map[uint64]int64, a.size), now
		}
	}
	a.cur[h] = now // one map operation while the generation has room
}

// last returns when mk was last accessed, or floor.
func (a *AccessClock) last(mk string) int64 {
	h := xxhash.Sum64String(mk)
	if t, ok := a.cur[h]; ok {
		return t
	}
	if t, ok := a.prev[h]; ok {
		return t
	}
	return a.floor
}
