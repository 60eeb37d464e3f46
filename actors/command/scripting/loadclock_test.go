package scripting

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLoadClockLooksEveryCheck: a load that began long ago is not stopped
// before it has run loadCheckEvery instructions (a few-line load on a
// machine that scheduled it late loads, as in Redis), and is stopped at
// that instruction; a load within its time is never stopped.
func TestLoadClockLooksEveryCheck(t *testing.T) {
	closed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	late := newLoadClock(time.Now().Add(-time.Hour), loadTimeout)
	for i := 1; i < loadCheckEvery; i++ {
		if closed(late.Done()) || late.Err() != nil {
			t.Fatalf("a late load stopped after %d instructions, want %d", i, loadCheckEvery)
		}
	}
	if !closed(late.Done()) || !errors.Is(late.Err(), context.DeadlineExceeded) {
		t.Fatalf("a late load ran on after %d instructions: err %v", loadCheckEvery, late.Err())
	}
	if !closed(late.Done()) {
		t.Fatal("a stopped load's Done opened again")
	}
	onTime := newLoadClock(time.Now(), time.Hour)
	for i := 0; i < 3*loadCheckEvery; i++ {
		if closed(onTime.Done()) {
			t.Fatalf("a load within its time stopped after %d instructions", i+1)
		}
	}
	if onTime.Err() != nil {
		t.Fatalf("a load within its time: err %v", onTime.Err())
	}
}
