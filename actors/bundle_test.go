package actors

import (
	"fmt"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/list"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/drivers"
)

// bundled dispatches lines as one client's bundle and returns the replies
// by position.
func bundled(t *testing.T, e *Engine, reg *command.Registry, lines []string) []string {
	t.Helper()
	col := &collector{replies: map[uint64]string{}, done: make(chan struct{}), want: len(lines)}
	var reqs []*Request
	for i, line := range lines {
		r := request(t, e, reg, col, line)
		if !e.Bundles(r) {
			t.Fatalf("%s: not bundled", line)
		}
		r.Seq = uint64(i)
		reqs = append(reqs, r)
	}
	e.DispatchBundle(reqs)
	return col.results(t, len(lines))
}

// TestBundleCommitsOnce: a client's consecutive multi-shard commands sent
// as a bundle run in order, each seeing the ones before, and commit once;
// an error in one (WRONGTYPE) is its own reply and does not spoil the
// others.
func TestBundleCommitsOnce(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	var drv *commitCounter
	e := engineOn(t, reg, 4, func(d drivers.Driver) drivers.Driver { drv = &commitCounter{Driver: d}; return drv })
	settle(t, e)
	lines := []string{"mset a 1 b 2 c 3 d 4", "mget a b c d", "mset a x b y c z", "mget a b c d", "del a b c", "exists a b c d"}
	want := []string{"+OK\r\n", "*4\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n", "+OK\r\n",
		"*4\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n$1\r\n4\r\n", ":3\r\n", ":1\r\n"}
	before := drv.commits.Load()
	got := bundled(t, e, reg, lines)
	for i := range lines {
		if got[i] != want[i] {
			t.Fatalf("%s: %q, want %q", lines[i], got[i], want[i])
		}
	}
	if n := drv.commits.Load() - before; n != 1 {
		t.Fatalf("%d commits for a bundle of %d commands, want 1", n, len(lines))
	}
	settle(t, e) // the bundle unlocked every shard it held
}

// TestBundleLeavesBlockedClientsServedInOrder: while a client is blocked,
// a bundle's commands run alone, so a push serves the waiter before the
// next command of the bundle pops what it pushed.
func TestBundleLeavesBlockedClientsServedInOrder(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands(), list.Commands())
	e := newEngine(t, reg, 4)
	settle(t, e)
	waiter := make(chanReplier, 1)
	blpop := request(t, e, reg, waiter, "blpop q 0")
	e.Dispatch(blpop)
	for e.blocked.n.Load() == 0 {
		select {
		case b := <-waiter:
			t.Fatalf("BLPOP replied %q on an empty list", b)
		case <-time.After(time.Millisecond):
		}
	}
	lines := []string{"lmove src q left left", "lmove q src right right"}
	c := make(chanReplier, 2)
	must := func(line string) {
		r := request(t, e, reg, c, line)
		e.Dispatch(r)
		<-c
	}
	must("rpush src v")
	req1, req2 := request(t, e, reg, c, lines[0]), request(t, e, reg, c, lines[1])
	if len(req1.Shards) < 2 {
		t.Skip("src and q hash to one shard")
	}
	req1.Seq, req2.Seq = 0, 1
	e.DispatchBundle([]*Request{req1, req2})
	select {
	case b := <-waiter:
		if got := string(b); got != "*2\r\n$1\r\nq\r\n$1\r\nv\r\n" {
			t.Fatalf("BLPOP got %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("BLPOP not served: the bundle's second command took the element first")
	}
	if a, b := string(<-c), string(<-c); a != "$1\r\nv\r\n" || b != "$-1\r\n" {
		t.Fatalf("LMOVEs: %q, %q; want the element, then nil (the waiter took it)", a, b)
	}
}

// TestBarrierJoins: a command of a client with nothing unanswered joins the
// barrier sent last while it waits for its shards, when that one holds
// every shard it needs: it runs right after the barrier's command, in the
// same commit, so before a command queued behind the barrier; a client
// with something unanswered, or a command needing another shard, gets its
// own barrier.
func TestBarrierJoins(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	var drv *commitCounter
	e := engineOn(t, reg, 4, func(d drivers.Driver) drivers.Driver { drv = &commitCounter{Driver: d}; return drv })
	settle(t, e)
	// One key per shard: k[0] on shard 0...
	k := make([]string, 4)
	for i, found := 0, 0; found < 4; i++ {
		key := fmt.Sprintf("k%d", i)
		if s := e.ShardOf([]byte(key)); k[s] == "" {
			k[s], found = key, found+1
		}
	}
	for _, s := range e.shards {
		s.mu.Lock() // busy: no barrier can start yet
	}
	locked := true
	defer func() {
		if locked { // a failure: let the engine stop
			for _, s := range e.shards {
				s.mu.Unlock()
			}
		}
	}()
	col := &collector{replies: map[uint64]string{}, done: make(chan struct{}), want: 5}
	at := func(seq uint64, answered bool, line string) *Request {
		r := request(t, e, reg, col, line)
		r.Seq, r.Answered = seq, answered
		return r
	}
	e.Dispatch(at(0, true, fmt.Sprintf("mset %s 1 %s 1 %s 1 %s 1", k[0], k[1], k[2], k[3])))
	first := e.open
	e.Dispatch(at(1, true, "append "+k[0]+" !")) // queued behind the barrier
	e.Dispatch(at(2, true, fmt.Sprintf("mset %s abc %s abc", k[0], k[1])))
	e.multiMu.Lock()
	joined := len(first.bundle)
	e.multiMu.Unlock()
	if joined != 2 {
		t.Fatalf("barrier holds %d commands after a join, want 2", joined)
	}
	e.Dispatch(at(3, false, fmt.Sprintf("mset %s x %s x", k[2], k[3]))) // its client waits for a reply
	if e.open == first || len(first.bundle) != 2 {
		t.Fatal("a client with a command unanswered joined another's barrier")
	}
	second := e.open
	e.Dispatch(at(4, true, fmt.Sprintf("mset %s y %s y", k[1], k[2]))) // k[1]'s shard is not second's
	if e.open == second || len(second.bundle) != 0 {
		t.Fatal("a command needing a shard the barrier does not hold joined it")
	}
	before := drv.commits.Load()
	for _, s := range e.shards {
		s.mu.Unlock()
	}
	locked = false
	got := col.results(t, 5)
	want := []string{"+OK\r\n", ":4\r\n", "+OK\r\n", "+OK\r\n", "+OK\r\n"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("reply %d: %q, want %q (APPEND must see the joined MSET)", i, got[i], want[i])
		}
	}
	if n := drv.commits.Load() - before; n != 4 {
		t.Fatalf("%d commits, want 4 (the joined MSET shares the first barrier's)", n)
	}
	settle(t, e)
}
