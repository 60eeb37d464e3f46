package store

import (
	"bytes"
	"errors"
	"slices"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// The list cache: for hot lists, a window of consecutive elements held in
// memory, so that pops, LINDEX and LRANGE read no store entries and pushes
// only append to it. A window holds the elements at list indexes
// [lo, lo+n) of one list version (versions are unique across keys and
// never reused), each element's value as its sub-key holds it.
//
// Invariant: a window equals the stored elements at its indexes, with the
// same exception as member cache entries (members.go): the writes of the
// open transaction, which holds the list's shard, are in it at once, and
// a transaction that ends without committing drops the windows it changed.
// Every write of a list element goes through the transaction's hook, which
// keeps the window in step: a write inside it or next to it (a push)
// changes or extends it, a write elsewhere leaves it alone, and a delete
// inside it cuts the window to its larger part on either side. Windows
// start where a push reaches a list end, and from a range read.
//
// A shard's windows share a byte budget; past it, the window least
// recently used goes, and one window alone is cut from the end away from
// its latest change.

// MaxCachedElement is the longest list element a window holds; writing a
// longer one cuts the window there.
const MaxCachedElement = 1 << 10

// listWindow is the cached run of one list version's elements.
type listWindow struct {
	lo    uint64
	ring  []string // elements at lo, lo+1, ...: ring[(start+k) % len(ring)]
	start int
	n     int
	bytes int
	used  uint64 // listCache.tick at the last access
	front bool   // the latest change was at the front
}

// elemCost is what one element is counted as against the budget.
func elemCost(v string) int { return len(v) + 24 }

func (w *listWindow) hi() uint64 { return w.lo + uint64(w.n) }

func (w *listWindow) at(k int) *string { return &w.ring[(w.start+k)%len(w.ring)] }

// covers reports whether indexes [from, to) are all in the window.
func (w *listWindow) covers(from, to uint64) bool { return from >= w.lo && to <= w.hi() }

func (w *listWindow) get(i uint64) string { return *w.at(int(i - w.lo)) }

func (w *listWindow) grow() {
	if w.n < len(w.ring) {
		return
	}
	r := make([]string, max(2*len(w.ring), 8))
	for k := range w.n {
		r[k] = *w.at(k)
	}
	w.ring, w.start = r, 0
}

func (w *listWindow) pushFront(v string) {
	w.grow()
	w.start = (w.start - 1 + len(w.ring)) % len(w.ring)
	w.ring[w.start] = v
	w.lo--
	w.n++
	w.bytes += elemCost(v)
}

func (w *listWindow) pushBack(v string) {
	w.grow()
	*w.at(w.n) = v
	w.n++
	w.bytes += elemCost(v)
}

func (w *listWindow) popFront() {
	p := w.at(0)
	w.bytes -= elemCost(*p)
	*p = ""
	w.start = (w.start + 1) % len(w.ring)
	w.lo++
	w.n--
}

func (w *listWindow) popBack() {
	p := w.at(w.n - 1)
	w.bytes -= elemCost(*p)
	*p = ""
	w.n--
}

// cutTo keeps only indexes [from, to) of the window.
func (w *listWindow) cutTo(from, to uint64) {
	for w.n > 0 && w.lo < from {
		w.popFront()
	}
	for w.n > 0 && w.hi() > to {
		w.popBack()
	}
}

// listCache is a shard's list windows, by list version.
type listCache struct {
	wins  map[uint64]*listWindow
	bytes int // of every window
	max   int
	tick  uint64
}

// EnableLists gives the cache list windows of budget bytes in all (0:
// none). A disabled MetaCache keeps none either.
func (c *MetaCache) EnableLists(budget int) {
	if c.Disabled() || budget < 1 {
		c.lists = nil
		return
	}
	c.lists = &listCache{wins: make(map[uint64]*listWindow), max: budget}
}

// ListElements returns the number of list elements cached.
func (c *MetaCache) ListElements() int {
	if c.lists == nil {
		return 0
	}
	n := 0
	for _, w := range c.lists.wins {
		n += w.n
	}
	return n
}

func (lc *listCache) purge() {
	lc.wins = make(map[uint64]*listWindow) // a cleared map keeps its buckets
	lc.bytes = 0
}

// window returns version v's window, marking it used (nil: none).
func (lc *listCache) window(v uint64) *listWindow {
	w := lc.wins[v]
	if w != nil {
		lc.tick++
		w.used = lc.tick
	}
	return w
}

// drop forgets version v's window.
func (lc *listCache) drop(v uint64) {
	if w := lc.wins[v]; w != nil {
		lc.bytes -= w.bytes
		delete(lc.wins, v)
	}
}

// change applies f to version v's window and keeps the budget; a window
// left empty goes.
func (lc *listCache) change(v uint64, w *listWindow, f func()) {
	before := w.bytes
	f()
	lc.bytes += w.bytes - before
	if w.n == 0 {
		lc.drop(v)
		return
	}
	lc.fit(v, w)
}

// fit evicts least recently used windows, then cuts w (the one just
// changed) from the end away from its latest change, until the windows
// fit the budget.
func (lc *listCache) fit(v uint64, w *listWindow) {
	for lc.bytes > lc.max && len(lc.wins) > 1 {
		var old uint64
		var oldest *listWindow
		for ov, ow := range lc.wins {
			if ow != w && (oldest == nil || ow.used < oldest.used) {
				old, oldest = ov, ow
			}
		}
		lc.drop(old)
	}
	for lc.bytes > lc.max && w.n > 0 {
		before := w.bytes
		if w.front {
			w.popBack()
		} else {
			w.popFront()
		}
		lc.bytes += w.bytes - before
	}
	if w.n == 0 {
		lc.drop(v)
	}
}

// set records that list version v holds val at index i (a write): inside
// the window or next to it, the window takes it; elsewhere it stays as it
// is. With no window, start reports whether i is at an end of the list (a
// push), which starts one.
func (lc *listCache) set(v, i uint64, val []byte, start bool) bool {
	w := lc.window(v)
	if w == nil {
		if !start || len(val) > MaxCachedElement {
			return false
		}
		w = &listWindow{lo: i + 1, used: lc.tick}
		lc.wins[v] = w
	}
	if len(val) > MaxCachedElement {
		// Too long to hold: keep the larger side of the window.
		lc.cut(v, w, i)
		return true
	}
	s := string(val)
	switch {
	case w.n > 0 && i >= w.lo && i < w.hi():
		lc.change(v, w, func() {
			p := w.at(int(i - w.lo))
			w.bytes += elemCost(s) - elemCost(*p)
			*p = s
		})
	case i+1 == w.lo:
		w.front = true
		lc.change(v, w, func() { w.pushFront(s) })
	case i == w.hi():
		w.front = false
		lc.change(v, w, func() { w.pushBack(s) })
	default:
		return false
	}
	return true
}

// del records that list version v's element at i was deleted.
func (lc *listCache) del(v, i uint64) bool {
	w := lc.window(v)
	if w == nil || i < w.lo || i >= w.hi() {
		return false
	}
	lc.cut(v, w, i)
	return true
}

// cut drops index i from w with the smaller of the sides around it.
func (lc *listCache) cut(v uint64, w *listWindow, i uint64) {
	lc.change(v, w, func() {
		if i < w.lo || i >= w.hi() {
			return
		}
		if i-w.lo >= w.hi()-i-1 {
			w.cutTo(w.lo, i)
		} else {
			w.cutTo(i+1, w.hi())
		}
	})
}

// merge offers the values read at indexes [from, from+len(vals)) of list
// version v: they start a window when there is none, or extend one they
// overlap or touch.
func (lc *listCache) merge(v, from uint64, vals [][]byte) bool {
	if len(vals) == 0 {
		return false
	}
	for _, x := range vals {
		if len(x) > MaxCachedElement {
			return false
		}
	}
	to := from + uint64(len(vals))
	w := lc.window(v)
	if w == nil {
		w = &listWindow{lo: from, used: lc.tick}
		lc.wins[v] = w
		lc.change(v, w, func() {
			for _, x := range vals {
				w.pushBack(string(x))
			}
		})
		return true
	}
	if to < w.lo || from > w.hi() {
		return false
	}
	lc.change(v, w, func() {
		if from < w.lo {
			for k := int(min(w.lo, to)-from) - 1; k >= 0; k-- {
				w.pushFront(string(vals[k]))
			}
		}
		for i := w.hi(); i < to; i++ {
			w.pushBack(string(vals[i-from]))
		}
	})
	return true
}

// element reads list element field of c through its window: a miss reads
// the store, and a value next to the window extends it.
func (c *Coll) element(lc *listCache, field []byte) ([]byte, bool, error) {
	i, isIndex := codec.DecodeListField(field)
	if lc != nil && isIndex {
		if w := lc.window(c.meta.Version); w != nil && w.covers(i, i+1) {
			return []byte(w.get(i)), true, nil // a copy: callers may change it
		}
	}
	v, err := c.t.txn.Get(c.SubKey(field))
	if errors.Is(err, drivers.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if lc != nil && isIndex {
		lc.set(c.meta.Version, i, v, false)
	}
	return v, true, nil
}

// ListScan calls fn for the elements of list c at indexes [from, to),
// backwards with rev, from its window when that holds them all; else from
// the store, and the values read then start or extend the window. fn's
// value is valid only during the call.
func (c *Coll) ListScan(from, to uint64, rev bool, fn func(i uint64, v []byte) (bool, error)) error {
	if from >= to {
		return nil
	}
	var lc *listCache
	if mc := c.t.cacheFor(c.mk); mc != nil && c.meta.Type == codec.TypeList {
		lc = mc.lists
	}
	if lc != nil {
		if w := lc.window(c.meta.Version); w != nil && w.covers(from, to) {
			return w.scan(from, to, rev, fn)
		}
	}
	// Keep what is read for the window, unless it could not hold it.
	keep := lc != nil && int(to-from)*elemCost("") <= lc.max/4
	var vals [][]byte
	var first, last uint64
	err := c.Scan(codec.ListField(from), codec.ListField(to), rev, int(min(to-from, 1<<30)), func(f, v []byte) (bool, error) {
		i, _ := codec.DecodeListField(f)
		if keep {
			switch {
			case len(vals) == 0:
				first = i
			case rev && i != last-1, !rev && i != last+1:
				keep = false // not consecutive (never in a sound list)
			}
			last = i
			vals = append(vals, bytes.Clone(v))
		}
		return fn(i, v)
	})
	if err == nil && keep && len(vals) > 0 {
		if rev {
			slices.Reverse(vals)
			first -= uint64(len(vals) - 1)
		}
		lc.merge(c.meta.Version, first, vals)
	}
	return err
}

// scan calls fn for the window's elements at [from, to), which it holds.
func (w *listWindow) scan(from, to uint64, rev bool, fn func(i uint64, v []byte) (bool, error)) error {
	for k := range to - from {
		i := from + k
		if rev {
			i = to - 1 - k
		}
		if more, err := fn(i, bytesOf(w.get(i))); err != nil || !more {
			return err
		}
	}
	return nil
}
