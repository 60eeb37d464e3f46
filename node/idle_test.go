package node

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestIdleReleaseCheck: a release needs the threshold (and half the live
// heap) allocated since the last one, and a quiet interval; after one,
// the count starts again.
func TestIdleReleaseCheck(t *testing.T) {
	const mib = 1 << 20
	type step struct {
		allocs, live uint64 // cumulative allocations, live heap (MiB)
		want         bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"quiet from the start", []step{{0, 10, false}, {0, 10, false}}},
		{"burst, then quiet", []step{{100, 10, false}, {101, 10, true}, {101, 10, false}}},
		{"still busy", []step{{100, 10, false}, {150, 10, false}, {200, 10, false}, {202, 10, true}}},
		{"burst below the threshold", []step{{50, 10, false}, {50, 10, false}}},
		{"quiet is under a sixteenth", []step{{100, 10, false}, {104, 10, false}, {107, 10, true}}},
		{"half the live heap first", []step{{100, 400, false}, {100, 400, false}, {250, 400, false}, {250, 400, true}}},
		{"counted again after a release", []step{{100, 10, false}, {100, 10, true}, {150, 10, false}, {150, 10, false}, {180, 10, false}, {180, 10, true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := idleRelease{threshold: 64 * mib}
			for i, s := range tc.steps {
				if got := r.check(s.allocs*mib, s.live*mib); got != s.want {
					t.Fatalf("step %d (allocs %d MiB, live %d MiB): release %v, want %v", i, s.allocs, s.live, got, s.want)
				}
			}
		})
	}
}

// TestRunIdleRelease: the loop releases once after a burst goes quiet
// and stops when told.
func TestRunIdleRelease(t *testing.T) {
	var allocs atomic.Uint64
	reads := make(chan struct{}, 100)
	read := func() (uint64, uint64) {
		reads <- struct{}{}
		return allocs.Load(), 0
	}
	released := make(chan struct{}, 10)
	done := make(chan struct{})
	finished := make(chan struct{})
	allocs.Store(1 << 30) // before the start: not counted
	go func() {
		defer close(finished)
		runIdleRelease(done, time.Millisecond, 64<<20, read, func() { released <- struct{}{} })
	}()
	<-reads     // the start
	go func() { // keep the loop's reads flowing
		for {
			select {
			case <-reads:
			case <-finished:
				return
			}
		}
	}()
	select {
	case <-released:
		t.Fatal("released with nothing allocated since the start")
	case <-time.After(50 * time.Millisecond):
	}
	allocs.Add(200 << 20) // a burst
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("no release after a burst went quiet")
	}
	close(done)
	<-finished
	if n := len(released); n != 0 {
		t.Fatalf("%d more releases for one burst", n)
	}
}
