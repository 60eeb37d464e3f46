package actors

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWaitGone: Stop waits past the stop future's 10 s for the guardian
// to go while its context allows (a shard in a store call), and gives
// the future's error back when the context ends first.
func TestWaitGone(t *testing.T) {
	timeout := errors.New("future: timeout")
	polls := 0
	if err := waitGone(context.Background(), func() bool { polls++; return polls < 4 }, timeout); err != nil || polls != 4 {
		t.Fatalf("gone after 4 polls: err %v, %d polls", err, polls)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := waitGone(ctx, func() bool { return true }, timeout); !errors.Is(err, timeout) {
		t.Fatalf("never gone: err %v, want the future's", err)
	}
}
