package store

import (
	"math"
	"math/bits"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// AccessClock remembers when keys were last read or written, for OBJECT
// IDLETIME. It is owned by one shard (beside its MetaCache); it takes a
// lock, since on a shared store the shard's reads run on goroutines of
// their own (actors' snapshot reads), which record their accesses here.
//
// It keeps two generations of at most size keys each: when the current
// one fills, it becomes the previous one and the previous one is dropped.
// A key found in neither was last accessed no later than floor — the time
// the dropped generation stopped taking accesses, or the clock's start —
// so its idle time is reported as at least that old, the way Redis counts
// from load time for keys untouched since a restart. Accesses on other
// nodes sharing the store are not seen.
//
// Keys are remembered by a hash of their meta key, not the key itself:
// each generation is an open-addressing table of 8-byte slots, a 32-bit
// fingerprint of the key's hash beside the access time in whole seconds
// from the clock's start, so a forgotten key's time is at most a second
// early (Redis's own LRU clock counts seconds). Two keys sharing a
// fingerprint in one probe run (a chance of about one in ten thousand
// per look-up in the largest tables) would only share an idle time. It
// takes about half the memory of a Go map of hashes to times.
type AccessClock struct {
	lfu       *LFU // when its policy is on, values are LFU counters (lfu.go)
	mu        sync.Mutex
	cur, prev accessGen
	size      int
	start     int64 // unix ms; times are kept as seconds since start
	floor     int64
	rotated   int64 // when cur started taking accesses
}

// NewAccessClock returns a clock of two generations of size keys,
// started at now (unix ms).
func NewAccessClock(size int, now int64) *AccessClock {
	size = max(size, 1)
	return &AccessClock{size: size, start: now, floor: now, rotated: now}
}

// SetLFU makes the clock keep LFU counters while l's policy is on.
func (a *AccessClock) SetLFU(l *LFU) { a.lfu = l }

// touch records an access of mk at now: its time, or under an LFU
// policy its counter after the access.
func (a *AccessClock) touch(mk string, now int64) {
	if a.lfu.On() {
		a.update(mk, now, func(v uint32, known bool) uint32 {
			if !known {
				v = a.lfu.initial(now)
			}
			return a.lfu.access(v, now)
		})
		return
	}
	t := a.seconds(now)
	a.update(mk, now, func(uint32, bool) uint32 { return t })
}

// raw returns the value kept for mk (a time or an LFU counter).
func (a *AccessClock) raw(mk string) (uint32, bool) {
	fp := fingerprint(mk)
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.get(fp)
}

func (a *AccessClock) get(fp uint32) (uint32, bool) {
	if t, ok := a.cur.get(fp); ok {
		return t, true
	}
	return a.prev.get(fp)
}

// update replaces the value kept for mk, at now, by fn's.
func (a *AccessClock) update(mk string, now int64, fn func(v uint32, known bool) uint32) {
	fp := fingerprint(mk)
	a.mu.Lock()
	defer a.mu.Unlock()
	v, ok := a.get(fp)
	v = fn(v, ok)
	if a.cur.n >= a.size { // full: a new key starts a generation
		if _, ok := a.cur.get(fp); !ok {
			a.floor = a.rotated
			a.prev, a.cur, a.rotated = a.cur, a.prev, now
			a.cur.reset()
		}
	}
	a.cur.put(fp, v)
}

// seconds is now's whole seconds since start, kept biased by 2³¹ in 32
// bits (so times up to 68 years before the start — RESTORE IDLETIME —
// and after it fit), rounded down.
func (a *AccessClock) seconds(now int64) uint32 {
	d := now - a.start
	s := d / 1000
	if d%1000 < 0 {
		s--
	}
	return uint32(min(max(s+1<<31, 0), math.MaxUint32))
}

// at is the unix ms of a time kept by seconds.
func (a *AccessClock) at(t uint32) int64 { return a.start + (int64(t)-1<<31)*1000 }

// last returns when mk was last accessed, or floor.
func (a *AccessClock) last(mk string) int64 {
	fp := fingerprint(mk)
	a.mu.Lock()
	defer a.mu.Unlock()
	if t, ok := a.cur.get(fp); ok {
		return a.at(t)
	}
	if t, ok := a.prev.get(fp); ok {
		return a.at(t)
	}
	return a.floor
}

// fingerprint is 32 bits of mk's hash, never 0.
func fingerprint(mk string) uint32 {
	return max(uint32(xxhash.Sum64String(mk)>>32), 1)
}

const accessMinSlots = 64

// accessGen is one generation: slots of fingerprint<<32 | time (see
// AccessClock.seconds), 0 for a free slot, a power of two of them, at most
// three quarters used. A fingerprint's first slot is a function of the
// fingerprint itself, so the table can grow without the keys.
type accessGen struct {
	slots []uint64
	shift uint // 32 - log2(len(slots))
	n     int
}

// find returns the slot of fp, or the free slot where it would go, and
// whether it was found. The generation must have slots.
func (g *accessGen) find(fp uint32) (int, bool) {
	mask := len(g.slots) - 1
	for i := int((fp * 0x9e3779b9) >> g.shift); ; i = (i + 1) & mask {
		switch s := g.slots[i]; {
		case s == 0:
			return i, false
		case uint32(s>>32) == fp:
			return i, true
		}
	}
}

// get returns the time kept for fp, if any.
func (g *accessGen) get(fp uint32) (uint32, bool) {
	if g.n == 0 {
		return 0, false
	}
	i, ok := g.find(fp)
	return uint32(g.slots[i]), ok
}

// put keeps t for fp, growing the table first when a new key would fill
// it past three quarters.
func (g *accessGen) put(fp, t uint32) {
	if 4*(g.n+1) > 3*len(g.slots) {
		g.grow()
	}
	i, ok := g.find(fp)
	if !ok {
		g.n++
	}
	g.slots[i] = uint64(fp)<<32 | uint64(t)
}

func (g *accessGen) grow() {
	old := g.slots
	n := max(2*len(old), accessMinSlots)
	g.slots, g.shift = make([]uint64, n), uint(32-bits.TrailingZeros(uint(n)))
	for _, s := range old {
		if s != 0 {
			i, _ := g.find(uint32(s >> 32))
			g.slots[i] = s
		}
	}
}

// reset empties the generation, keeping its table for the next one.
func (g *accessGen) reset() {
	clear(g.slots)
	g.n = 0
}
