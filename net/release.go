package net

import (
	"runtime/debug"
	"sync/atomic"
	"time"
)

// bigTransient is the size from which a command's arguments or a reply
// are worth returning to the OS once they are dropped.
const bigTransient = 32 << 20

// closeRelease is what a client must hold in buffers when it goes away
// for its memory to be returned to the OS at once.
const closeRelease = 8 << 20

// releaser returns freed heap memory to the OS after huge transient
// buffers (a big command's arguments, a big reply) are done with, at most
// once a second. The Go runtime would otherwise keep that memory for a
// while, and the next big command would add to the resident size.
type releaser struct {
	last    atomic.Int64 // unix ns of the last release
	pending atomic.Bool
}

// soon schedules a release (one at a time).
func (r *releaser) soon() {
	if !r.pending.CompareAndSwap(false, true) {
		return
	}
	wait := max(0, time.Second-time.Since(time.Unix(0, r.last.Load())))
	time.AfterFunc(wait+10*time.Millisecond, func() {
		r.last.Store(time.Now().UnixNano())
		r.pending.Store(false)
		debug.FreeOSMemory()
	})
}
