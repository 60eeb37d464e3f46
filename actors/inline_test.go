package actors

import (
	"context"
	"strconv"
	stdstrings "strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
)

// settle waits until e's shards are idle: each has handled its start-up
// message (a round trip through its mailbox, which delivers system
// messages first) and let go of its lock.
func settle(t *testing.T, e *Engine) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, s := range e.shards {
		if err := e.Exec(ctx, i, 0, &command.Spec{Name: "noop", Flags: command.ReadOnly}, okRunner{}); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		for !s.idle() {
			if ctx.Err() != nil {
				t.Fatal("shards never idle")
			}
			time.Sleep(time.Millisecond)
		}
		s.mu.Unlock()
	}
}

// ranHere runs line with RunHere and reports whether it ran, checking
// that a command that ran has replied before RunHere returned.
func ranHere(t *testing.T, e *Engine, reg *command.Registry, line string) (bool, string) {
	t.Helper()
	c := make(chanReplier, 1)
	if !e.RunHere(request(t, e, reg, c, line)) {
		select {
		case b := <-c:
			t.Fatalf("%s: refused but replied %q", line, b)
		default:
		}
		return false, ""
	}
	select {
	case b := <-c:
		return true, string(b)
	default:
		t.Fatalf("%s: ran here without a reply", line)
		return true, ""
	}
}

// okRunner replies OK.
type okRunner struct{}

func (okRunner) Run(c *command.Ctx) error { c.W.OK(); return nil }

// TestRunHere: an event loop runs a command in place of its idle shards
// (single- or multi-shard), and leaves it to the shards when one of them
// is busy — its lock taken (running, or waiting at a reservation), a
// group open, a message queued — or when the command may take long or
// wait (scripts, blocking commands). A refused attempt takes no lock.
func TestRunHere(t *testing.T) {
	e, reg := oneShardEngine(t)
	settle(t, e)
	s := e.shards[0]
	if ok, got := ranHere(t, e, reg, "set k v"); !ok || got != "+OK\r\n" {
		t.Fatalf("SET on an idle shard: ran %v, reply %q", ok, got)
	}
	if ok, got := ranHere(t, e, reg, "get k"); !ok || got != "$1\r\nv\r\n" {
		t.Fatalf("GET on an idle shard: ran %v, reply %q", ok, got)
	}

	// A command with more than inPlaceArgBytes of arguments goes to its
	// shard: writing it may take seconds, which the loop's other clients
	// would wait out.
	big := make([]byte, inPlaceArgBytes+1)
	c := make(chanReplier, 1)
	if e.RunHere(&Request{Client: c, Spec: reg.Lookup([]byte("set")), Runner: okRunner{}, Proto: 2, Shards: []int{0},
		Args: [][]byte{[]byte("set"), []byte("k"), big}, ArgBytes: len(big) + 4}) {
		t.Fatal("a SET of 1 MiB and a byte ran here")
	}
	if ok, _ := ranHere(t, e, reg, "set k "+stdstrings.Repeat("x", inPlaceArgBytes-8)); !ok {
		t.Fatal("a SET just under the bound did not run here")
	}

	s.mu.Lock()
	if ok, _ := ranHere(t, e, reg, "get k"); ok {
		t.Fatal("ran while the shard's lock was held")
	}
	s.mu.Unlock()

	s.group = &group{}
	if ok, _ := ranHere(t, e, reg, "get k"); ok {
		t.Fatal("ran while the shard had an open group")
	}
	s.group = nil
	if !s.mu.TryLock() {
		t.Fatal("a refused RunHere left the shard locked")
	}
	s.mu.Unlock()

	mb := s.mb
	s.mb = countMailbox{Mailbox: mb, n: 1}
	if ok, _ := ranHere(t, e, reg, "get k"); ok {
		t.Fatal("ran while a message waited in the shard's mailbox")
	}
	s.mb = mb

	for _, spec := range []*command.Spec{
		{Name: "script", Flags: command.Write | command.Serial},
		{Name: "bpop", Flags: command.Write | command.Blocking},
		{Name: "scan", Flags: command.ReadOnly | command.Keyspace},
	} {
		c := make(chanReplier, 1)
		if e.RunHere(&Request{Client: c, Spec: spec, Runner: okRunner{}, Proto: 2, Shards: []int{0}}) {
			t.Fatalf("%s (flags %b) ran here", spec.Name, spec.Flags)
		}
	}
}

// TestRunHereMultiShard: a multi-shard command runs in place when all its
// shards are idle, holding them all; with one busy it runs nowhere and
// releases the locks it took.
func TestRunHereMultiShard(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := newEngine(t, reg, 4)
	settle(t, e)
	line := "mset a 1 b 2 c 3 d 4 e 5 f 6"
	req := request(t, e, reg, make(chanReplier, 1), line)
	if len(req.Shards) < 2 {
		t.Fatalf("keys on %d shard(s): the test needs several", len(req.Shards))
	}
	if ok, got := ranHere(t, e, reg, line); !ok || got != "+OK\r\n" {
		t.Fatalf("MSET over idle shards: ran %v, reply %q", ok, got)
	}
	if ok, got := ranHere(t, e, reg, "mget a b c d e f"); !ok || got != "*6\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n$1\r\n6\r\n" {
		t.Fatalf("MGET over idle shards: ran %v, reply %q", ok, got)
	}
	busy := e.shards[req.Shards[len(req.Shards)-1]]
	busy.mu.Lock()
	if ok, _ := ranHere(t, e, reg, line); ok {
		t.Fatal("ran with one of its shards busy")
	}
	busy.mu.Unlock()
	for _, i := range req.Shards {
		if !e.shards[i].mu.TryLock() {
			t.Fatalf("shard %d left locked by a refused RunHere", i)
		}
		e.shards[i].mu.Unlock()
	}
}

// TestRunHereLeavesSyncedWritesToShards: while every commit syncs the
// disk, writes go to the shards, whose group commits share the syncs;
// reads still run in place.
func TestRunHereLeavesSyncedWritesToShards(t *testing.T) {
	e, reg := oneShardEngine(t)
	settle(t, e)
	d, ok := e.drv.(*badger.DB)
	if !ok {
		t.Fatalf("driver %T", e.drv)
	}
	if err := d.SetDurability(badger.DurabilityAlways); err != nil {
		t.Fatal(err)
	}
	if ok, _ := ranHere(t, e, reg, "set k v"); ok {
		t.Fatal("a write ran in place with durability always")
	}
	if ok, _ := ranHere(t, e, reg, "get k"); !ok {
		t.Fatal("a read was refused with durability always")
	}
	if err := d.SetDurability(badger.DurabilityEverySec); err != nil {
		t.Fatal(err)
	}
	if ok, _ := ranHere(t, e, reg, "set k v"); !ok {
		t.Fatal("a write was refused with durability everysec")
	}
}

// beginCounter counts the transactions begun.
type beginCounter struct {
	drivers.Driver
	begins atomic.Int64
}

func (d *beginCounter) Begin(writable bool) (drivers.Txn, error) {
	d.begins.Add(1)
	return d.Driver.Begin(writable)
}

// TestCachedReadBeginsNoTransaction: a read served from the meta cache
// (a small string just written) begins no driver transaction at all; a
// read that misses the cache, and a write, do.
func TestCachedReadBeginsNoTransaction(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	var drv *beginCounter
	e := engineOn(t, reg, 1, func(d drivers.Driver) drivers.Driver { drv = &beginCounter{Driver: d}; return drv })
	settle(t, e)
	step := func(line, want string, begins int64) {
		t.Helper()
		before := drv.begins.Load()
		if ok, got := ranHere(t, e, reg, line); !ok || got != want {
			t.Fatalf("%s: ran %v, reply %q, want %q", line, ok, got, want)
		}
		if n := drv.begins.Load() - before; n != begins {
			t.Fatalf("%s: %d driver transactions, want %d", line, n, begins)
		}
	}
	step("set k v", "+OK\r\n", 1)
	step("get k", "$1\r\nv\r\n", 0)
	step("exists k", ":1\r\n", 0)
	e.caches[0].Purge()
	step("get k", "$1\r\nv\r\n", 1)
	step("get k", "$1\r\nv\r\n", 0)
}

// TestSessionGroupsUntilEnd: a session runs a client's pipeline in place
// of its idle shard in one group — replies held until End, one commit —
// and keeps the shard locked until then; a command that cannot join a
// group is refused.
func TestSessionGroupsUntilEnd(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	var drv *commitCounter
	e := engineOn(t, reg, 1, func(d drivers.Driver) drivers.Driver { drv = &commitCounter{Driver: d}; return drv })
	settle(t, e)
	ss := e.Session()
	lines := []string{"incr n", "incr n", "get n", "set s x", "append s y", "get s"}
	want := []string{":1\r\n", ":2\r\n", "$1\r\n2\r\n", "+OK\r\n", ":2\r\n", "$2\r\nxy\r\n"}
	outs := make([]chanReplier, len(lines))
	before := drv.commits.Load()
	for i, line := range lines {
		outs[i] = make(chanReplier, 1)
		if !ss.Run(request(t, e, reg, outs[i], line)) {
			t.Fatalf("%s: refused by the session", line)
		}
	}
	for i, c := range outs {
		select {
		case b := <-c:
			t.Fatalf("%s replied %q before End", lines[i], b)
		default:
		}
	}
	if e.shards[0].mu.TryLock() {
		t.Fatal("the session's shard is not locked")
	}
	if ss.Run(&Request{Client: make(chanReplier, 1), Spec: &command.Spec{Name: "bpop", Flags: command.Write | command.Blocking},
		Runner: okRunner{}, Proto: 2, Shards: []int{0}}) {
		t.Fatal("a blocking command joined the session")
	}
	ss.End()
	for i, c := range outs {
		if got := string(<-c); got != want[i] {
			t.Fatalf("%s: %q, want %q", lines[i], got, want[i])
		}
	}
	if n := drv.commits.Load() - before; n != 1 {
		t.Fatalf("%d commits for the session's group, want 1", n)
	}
	if !e.shards[0].mu.TryLock() {
		t.Fatal("End left the shard locked")
	}
	e.shards[0].mu.Unlock()

	e.shards[0].mu.Lock() // busy
	if ss.Run(request(t, e, reg, make(chanReplier, 1), "get n")) {
		t.Fatal("ran on a busy shard")
	}
	e.shards[0].mu.Unlock()
	ss.End()
}

// TestBigGetLeavesTheLoop: a GET of a string over command.LoopReplyMax,
// tried on an event loop (RunHere, or a Session), is answered by its
// shard instead (command.ErrNotOnLoop): RunHere and the Session take it
// but do not reply themselves, and the shard's reply carries the whole
// value. A small GET still answers in place.
func TestBigGetLeavesTheLoop(t *testing.T) {
	e, reg := oneShardEngine(t)
	settle(t, e)
	value := stdstrings.Repeat("v", command.LoopReplyMax+1)
	c := make(chanReplier, 1)
	e.Dispatch(request(t, e, reg, c, "set big "+value))
	if got := <-c; string(got) != "+OK\r\n" {
		t.Fatalf("SET big = %.40q", got)
	}
	want := "$" + strconv.Itoa(len(value)) + "\r\n" + value + "\r\n"
	for _, how := range []string{"RunHere", "Session"} {
		settle(t, e)
		r := &loopReplier{c: make(chan []byte, 1)}
		req := request(t, e, reg, r, "get big")
		r.onLoop.Store(true)
		if how == "RunHere" {
			if !e.RunHere(req) {
				t.Fatalf("%s: GET big refused: its shard is idle", how)
			}
		} else {
			ss := e.Session()
			if !ss.Run(req) {
				t.Fatalf("%s: GET big refused: its shard is idle", how)
			}
			ss.End()
		}
		r.onLoop.Store(false)
		select {
		case got := <-r.c:
			if string(got) != want {
				t.Fatalf("%s: GET big: %d bytes, not the value", how, len(got))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: GET big never answered", how)
		}
		if r.byLoop.Load() {
			t.Fatalf("%s: GET big was answered on the event loop", how)
		}
	}
	settle(t, e) // the big GET's shard holds its lock a moment after its reply
	if ok, got := ranHere(t, e, reg, "get small"); !ok || got != "$-1\r\n" {
		t.Fatalf("a small GET: ran here %v, %q", ok, got)
	}
}

// loopReplier records whether its reply came while onLoop was set (the
// caller's RunHere or Session was running).
type loopReplier struct {
	c              chan []byte
	onLoop, byLoop atomic.Bool
}

func (r *loopReplier) Reply(_ uint64, b []byte) {
	r.byLoop.Store(r.onLoop.Load())
	r.c <- b
}

// TestSessionWarm: a session reads ahead only in the shards it holds
// (run with -race: the other shards' goroutines write their caches
// meanwhile), and the commands after it answer as they would without it.
func TestSessionWarm(t *testing.T) {
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e := engineOn(t, reg, 4, nil)
	settle(t, e)
	var keys [][]byte
	for i := range 40 {
		k := "k" + strconv.Itoa(i)
		keys = append(keys, []byte(k))
		if ran, got := ranHere(t, e, reg, "set "+k+" v"+strconv.Itoa(i)); !ran || got != "+OK\r\n" {
			t.Fatalf("set %s: ran here %v, %q", k, ran, got)
		}
	}
	other := (e.ShardOf(keys[0]) + 1) % 4
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // another shard's goroutine writes its cache meanwhile
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			k := keys[i%len(keys)]
			if e.ShardOf(k) != other {
				continue
			}
			c := make(chanReplier, 1)
			e.Dispatch(request(t, e, reg, c, "set "+string(k)+" w"))
			<-c
		}
	}()
	ss := e.Session()
	c := make(chanReplier, 1)
	if !ss.Run(request(t, e, reg, c, "get "+string(keys[0]))) {
		t.Fatal("get refused by the session")
	}
	for range 100 {
		for i := 0; i < len(keys); i += 16 {
			ss.Warm(0, keys[i:min(i+16, len(keys))], keys[i:min(i+16, len(keys))])
		}
	}
	close(stop)
	<-done
	ss.End()
	if got := string(<-c); got != "$2\r\nv0\r\n" {
		t.Fatalf("get k0 after Warm: %q", got)
	}
}
