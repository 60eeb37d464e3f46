package actors

import (
	"testing"
	"time"
)

// waitFor polls cond (under the pool's lock) until it holds, for at most
// ten seconds.
func waitFor(t *testing.T, p *readerPool, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting: " + what)
		}
	}
}

// TestReaderPoolRunsOnTheReaderIdleLast: a read goes to the reader that
// went idle last (its scratch is the one used last), a new reader starts
// only when none is idle, and no more than max run at once: a hand-off
// then waits for one to go idle.
func TestReaderPoolRunsOnTheReaderIdleLast(t *testing.T) {
	type ran struct {
		shard int
		sc    *runScratch
	}
	runs := make(chan ran, 16)
	hold := map[int]chan struct{}{}
	for i := range 8 {
		hold[i] = make(chan struct{})
	}
	p := newReaderPool(2, func(j readJob, sc *runScratch) {
		<-hold[j.shard]
		runs <- ran{j.shard, sc}
	})
	defer p.close()
	p.hand(readJob{shard: 0})
	p.hand(readJob{shard: 1}) // reader 0 is busy: a second starts
	close(hold[1])
	b := <-runs
	waitFor(t, p, "reader of 1 idle", func() bool { return len(p.idle) == 1 })
	close(hold[0])
	a := <-runs
	waitFor(t, p, "both idle", func() bool { return len(p.idle) == 2 })
	if a.sc == b.sc || p.n != 2 {
		t.Fatalf("%d readers, scratch %p and %p: want 2 readers of their own", p.n, a.sc, b.sc)
	}
	// Reader a went idle last: it takes the next read, then b the one
	// after while a is busy.
	close(hold[2])
	p.hand(readJob{shard: 2})
	if r := <-runs; r.sc != a.sc {
		t.Fatal("a read went to the reader idle longest")
	}
	waitFor(t, p, "both idle again", func() bool { return len(p.idle) == 2 })
	p.hand(readJob{shard: 3}) // held: its reader stays busy
	p.hand(readJob{shard: 4}) // held too: both busy
	handed := make(chan struct{})
	go func() {
		p.hand(readJob{shard: 5}) // a third waits: max is 2
		close(handed)
	}()
	select {
	case <-handed:
		t.Fatal("a third read was handed while two readers of at most two were busy")
	case <-time.After(50 * time.Millisecond):
	}
	close(hold[4])
	r := <-runs
	<-handed
	close(hold[5])
	if s := <-runs; s.sc != r.sc || p.n != 2 {
		t.Fatalf("the waiting read ran on %p, %d readers; want the reader that went idle (%p), 2", s.sc, p.n, r.sc)
	}
	close(hold[3])
	<-runs
	waitFor(t, p, "all idle", func() bool { return len(p.idle) == 2 })
}

// TestReaderPoolClose: closing ends the idle readers at once and a busy
// one once its read is done.
func TestReaderPoolClose(t *testing.T) {
	release := make(chan struct{})
	p := newReaderPool(4, func(j readJob, _ *runScratch) {
		if j.shard == 1 {
			<-release
		}
	})
	p.hand(readJob{shard: 0})
	waitFor(t, p, "reader idle", func() bool { return len(p.idle) == 1 })
	p.hand(readJob{shard: 1}) // takes the idle reader
	p.hand(readJob{shard: 2}) // a second reader
	waitFor(t, p, "second idle", func() bool { return len(p.idle) == 1 })
	p.close()
	waitFor(t, p, "idle readers ended", func() bool { return p.n == 1 })
	close(release)
	waitFor(t, p, "every reader ended", func() bool { return p.n == 0 && len(p.idle) == 0 })
}
