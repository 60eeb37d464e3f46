package node

import (
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/rekv/rekv/conf"
)

// gcFloor keeps the collector from running before the heap has reached a
// floor, whatever the live heap. Go collects once the heap has grown by
// GOGC percent of the live heap, so a process whose live heap is small
// and which allocates fast collects many times a second: a node on a
// shared store (TiKV) keeps little (no store of its own; 13 MB live) and
// allocates 4.5 KB a GET in client-go and gRPC, and collected 40 times
// every 100,000 GETs, 2.9 us of its 27-30 us of CPU a GET. With a floor
// the growth allowed is raised until the next collection comes at the
// floor; a live heap past half of it (a Badger node's caches) keeps the
// percentage it has, so its peak memory does not change.
type gcFloor struct {
	floor uint64 // bytes
	base  int    // the percentage otherwise in force (GOGC, runtime.gc_percent)
}

// maxFloorPercent bounds the percentage a floor sets (a live heap of a
// few hundred KiB would ask for tens of thousands).
const maxFloorPercent = 10000

// percent returns the GC percentage for a live heap of live bytes: the
// base, or more when the base would collect before the floor.
func (f gcFloor) percent(live uint64) int {
	if f.base < 0 || live == 0 || live+live*uint64(f.base)/100 >= f.floor {
		return f.base
	}
	return int(min((f.floor-live)*100/live, maxFloorPercent))
}

// StartGCFloor sets, once a second, the GC percentage that keeps the
// heap from being collected before it reached conf.Runtime.GCFloorMiB (0
// starts nothing), from the live heap the last collection marked, until
// the returned stop is called; then it puts the percentage it found
// back. Like ApplyRuntime it acts on the whole process, and must start
// after it: the percentage in force then is its base.
func StartGCFloor(c conf.Runtime, log *slog.Logger) (stop func()) {
	if c.GCFloorMiB <= 0 {
		return func() {}
	}
	base := debug.SetGCPercent(100)
	debug.SetGCPercent(base)
	if base < 0 {
		return func() {} // collection only at the memory limit: no floor to keep
	}
	f := gcFloor{floor: uint64(c.GCFloorMiB) << 20, base: base}
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		set := base
		for {
			select {
			case <-done:
				debug.SetGCPercent(base)
				return
			case <-t.C:
			}
			metrics.Read(samples)
			if p := f.percent(samples[0].Value.Uint64()); p != set {
				debug.SetGCPercent(p)
				log.Debug("gc floor: percentage", "gc_percent", p, "live_mib", samples[0].Value.Uint64()>>20)
				set = p
			}
		}
	}()
	return func() { close(done); <-finished }
}
