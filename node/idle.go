package node

import (
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/rekv/rekv/conf"
)

// idleRelease decides when a process that allocated much and then went
// quiet should collect and hand its free memory back to the OS. Go
// collects when the heap has grown by GOGC percent of the live heap, so
// after a burst (a bulk load) the burst's garbage and the headroom stay
// resident until the next collection, which on an idle server only Go's
// two-minute forced collection brings.
//
// A release is followed by followUps more, followUpEvery checks apart
// (waiting for a quiet check when one is due): memory that a burst's work
// lets go of only after the heap went quiet is garbage no collection has
// seen, and nothing allocates on an idle server to bring one. Badger's
// compactions run on after a load from buffers it pools, without
// allocating, and the pool drops them a second or two after its last
// compaction: when the release came first, 250-290 MiB of them stayed
// resident (RSS 470-550 MiB instead of 197 MiB after compare.sh's load
// sequence in four runs of five, 2026-11-30). Each follow-up is a full
// collection, whose cost grows with the live heap while what it can
// find does not (such buffers are a few hundred MiB): a live heap of
// followUpMaxLive thresholds or more (1 GiB by default) gets none, and
// its late garbage waits for Go's own next collection.
type idleRelease struct {
	threshold uint64 // bytes allocated that make a release worth it
	since     uint64 // the allocation counter at the last release
	last      uint64 // the allocation counter at the last check
	due       int    // follow-up releases still to come
	countdown int    // checks until the next follow-up
}

const followUps, followUpEvery, followUpMaxLive = 3, 2, 16

// check takes the process's cumulative heap allocations and its live
// heap (as the last collection marked it) and reports whether to release
// now: at least the threshold, and half the live heap, allocated since
// the last release, and under a sixteenth of the threshold since the
// last check (quiet); or a follow-up of the last release is due and
// the check is quiet (a release with a live heap under followUpMaxLive
// thresholds has followUps of them).
func (r *idleRelease) check(allocs, live uint64) bool {
	recent := allocs - r.last
	r.last = allocs
	quiet := recent < r.threshold/16
	if quiet && allocs-r.since >= max(r.threshold, live/2) {
		r.since = allocs
		r.due, r.countdown = 0, followUpEvery
		if live < followUpMaxLive*r.threshold {
			r.due = followUps
		}
		return true
	}
	if r.due == 0 {
		return false
	}
	if r.countdown > 1 {
		r.countdown--
		return false
	}
	if !quiet {
		return false
	}
	r.due--
	r.countdown = followUpEvery
	return true
}

// StartIdleRelease checks once a second whether to collect and return
// memory to the OS (conf.Runtime.IdleReleaseMiB; 0 starts nothing) until
// the returned stop is called. Like ApplyRuntime it acts on the whole
// process: the program starts it once.
func StartIdleRelease(c conf.Runtime, log *slog.Logger) (stop func()) {
	if c.IdleReleaseMiB <= 0 {
		return func() {}
	}
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() (allocs, live uint64) {
		metrics.Read(samples)
		return samples[0].Value.Uint64(), samples[1].Value.Uint64()
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		runIdleRelease(done, time.Second, uint64(c.IdleReleaseMiB)<<20, read, func() {
			start := time.Now()
			debug.FreeOSMemory()
			log.Debug("idle: returned free memory to the OS", "took", time.Since(start))
		})
	}()
	return func() { close(done); <-finished }
}

// runIdleRelease checks every interval until done is closed; read gives
// the allocation counter and live heap, release collects and frees.
func runIdleRelease(done <-chan struct{}, interval time.Duration, threshold uint64, read func() (uint64, uint64), release func()) {
	allocs, _ := read()
	r := idleRelease{threshold: threshold, since: allocs, last: allocs}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if r.check(read()) {
				release()
			}
		}
	}
}
