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
		{"counted again after a release", []step{{100, 10, false}, {100, 10, true}, {150, 10, false}, {150, 10, true}, // a follow-up
			{150, 10, false}, {150, 10, true}, {150, 10, false}, {150, 10, true}, // the last two
			{180, 10, false}, {180, 10, true}}},
		{"three follow-ups, two checks apart", []step{{100, 10, false}, {100, 10, true},
			{100, 10, false}, {100, 10, true}, {100, 10, false}, {100, 10, true}, {100, 10, false}, {100, 10, true},
			{100, 10, false}, {100, 10, false}, {100, 10, false}, {100, 10, false}}},
		{"no follow-ups for a live heap of 16 thresholds", []step{{1100, 1024, false}, {1100, 1024, true},
			{1100, 1024, false}, {1100, 1024, false}, {1100, 1024, false}, {1100, 1024, false}, {1100, 1024, false}}},
		{"follow-ups just under it", []step{{1100, 1023, false}, {1100, 1023, true},
			{1100, 1023, false}, {1100, 1023, true}}},
		{"a follow-up waits for a quiet check", []step{{100, 10, false}, {100, 10, true},
			{100, 10, false}, {120, 10, false}, {140, 10, false}, {141, 10, true}}},
		{"a new release starts the follow-ups again", []step{{100, 10, false}, {100, 10, true},
			{100, 10, false}, {100, 10, true}, {200, 10, false}, {200, 10, true}, // released for the new burst
			{200, 10, false}, {200, 10, true}, {200, 10, false}, {200, 10, true}, {200, 10, false}, {200, 10, true},
			{200, 10, false}, {200, 10, false}}},
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

// TestRunIdleRelease: the loop releases once after a burst goes quiet,
// then follows up followUps times, and stops when told.
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
	for i := 0; i < followUps; i++ {
		select {
		case <-released:
		case <-time.After(5 * time.Second):
			t.Fatalf("follow-up %d of %d did not come", i+1, followUps)
		}
	}
	select {
	case <-released:
		t.Fatal("more releases for one burst than the first and its follow-ups")
	case <-time.After(50 * time.Millisecond):
	}
	close(done)
	<-finished
}
