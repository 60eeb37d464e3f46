package scripting

import (
	"runtime/metrics"
	"time"
)

// Memory bound.
//
// gopher-lua allocates from Go's heap and has no allocator hook, so a
// script's memory is bounded from outside: once a script has run for
// watchAfter, a watchdog samples the live heap every watchEvery and stops
// the script (cancelling its Lua context) when the heap has grown by more
// than Options.MaxMemory since the script started. The figure is the whole
// process's, so the bound is generous by design: it stops runaway scripts
// (tables grown without end) before they take the server down, and a
// short script never pays for the watchdog.

const (
	watchAfter = 50 * time.Millisecond
	watchEvery = 10 * time.Millisecond
)

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watch starts the memory watchdog of a running script; stop ends it.
func (s *Scripts) watch(r *running) (stop func()) {
	if s.maxMemory == 0 {
		return func() {}
	}
	base := heapBytes()
	done := make(chan struct{})
	timer := time.AfterFunc(watchAfter, func() {
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if h := heapBytes(); h > base && h-base > s.maxMemory {
					r.oom.Store(true)
					r.cancel()
					return
				}
			}
		}
	})
	return func() {
		timer.Stop()
		close(done)
	}
}
