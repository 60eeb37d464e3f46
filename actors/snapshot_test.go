package actors

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/command/strings"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/tikv"
)

// heldStamps is a shared store whose read stamps come only once the test
// opens them (a slow oracle), and which counts the reads that reach it
// from transactions at a snapshot.
type heldStamps struct {
	*tikv.DB
	open    chan struct{}
	asked   atomic.Int64 // stamps asked for
	atReads atomic.Int64 // Get and BatchGet calls at a snapshot
}

func (h *heldStamps) ReadStamp() func() (uint64, error) {
	h.asked.Add(1)
	wait := h.DB.ReadStamp()
	return func() (uint64, error) { <-h.open; return wait() }
}

func (h *heldStamps) BeginAt(ts uint64) (drivers.Txn, error) {
	tx, err := h.DB.BeginAt(ts)
	if err != nil {
		return nil, err
	}
	return &countedReads{Txn: tx, n: &h.atReads}, nil
}

// heldEngine starts an engine of shards shards on a shared store (the
// in-process TiKV mock) whose stamps come at once until the test holds
// them (heldStamps.hold).
func heldEngine(t *testing.T, shards int) (*Engine, *heldStamps, *command.Registry) {
	return heldEngineWith(t, Options{Shards: shards, Shared: true, ScanCursors: 10})
}

// heldEngineWith is heldEngine with options o.
func heldEngineWith(t *testing.T, o Options) (*Engine, *heldStamps, *command.Registry) {
	m, err := tikv.NewMock()
	if err != nil {
		t.Fatal(err)
	}
	db, err := m.Open(tikv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &heldStamps{DB: db, open: make(chan struct{})}
	close(h.open)
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e, err := New(o, h, reg, command.Server{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Stop(context.Background())
		_ = db.Close()
		_ = m.Close()
	})
	return e, h, reg
}

// hold makes the stamps asked for from now on wait until release is
// called (at the latest when the test ends: a failed test must not leave
// the engine's Stop waiting). Call it while no stamp is being asked for.
func (h *heldStamps) hold(t *testing.T) (release func()) {
	held := make(chan struct{})
	h.open = held
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	t.Cleanup(release)
	return release
}

type countedReads struct {
	drivers.Txn
	n *atomic.Int64
}

func (t *countedReads) Get(k []byte) ([]byte, error) { t.n.Add(1); return t.Txn.Get(k) }
func (t *countedReads) BatchGet(k [][]byte) ([][]byte, error) {
	t.n.Add(1)
	return t.Txn.BatchGet(k)
}

// TestSnapshotReadsShareOneBatch: on a shared store, 200 GETs of 4 shards
// that arrive while a stamp is in flight wait for the next one together,
// and all that they read is fetched in one batch at it: two stamps and
// one read of the store for 200 GETs, each with its own key's value.
func TestSnapshotReadsShareOneBatch(t *testing.T) {
	e, h, reg := heldEngine(t, 4)

	const n = 200
	var sets []string
	for i := range n {
		sets = append(sets, fmt.Sprintf("set k%d v%d", i, i))
	}
	send(t, e, reg, sets, nil)
	release := h.hold(t)

	// One read makes a stamp in flight; the others arrive after it was
	// asked for.
	asked := h.asked.Load()
	first := dispatchAll(t, e, reg, []string{"get k0"}, nil)
	for deadline := time.Now().Add(10 * time.Second); h.asked.Load() == asked; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first GET asked for no stamp")
		}
	}
	asked = h.asked.Load()
	var gets []string
	for i := range n {
		gets = append(gets, fmt.Sprintf("get k%d", i))
	}
	col := dispatchAll(t, e, reg, gets, nil)
	// Every GET is queued at a stamp before any stamp comes.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		e.stampMu.Lock()
		waiting := 0
		if e.next != nil {
			e.next.mu.Lock()
			waiting = len(e.next.jobs)
			e.next.mu.Unlock()
		}
		e.stampMu.Unlock()
		if waiting == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d GETs wait for the next stamp", waiting, n)
		}
	}
	reads := h.atReads.Load()
	release()
	if got := first.results(t, 1); got[0] != "$2\r\nv0\r\n" {
		t.Fatalf("first GET = %q", got[0])
	}
	got := col.results(t, n)
	for i, g := range got {
		if want := fmt.Sprintf("$%d\r\nv%d\r\n", len(fmt.Sprint(i))+1, i); g != want {
			t.Fatalf("GET k%d = %q, want %q", i, g, want)
		}
	}
	if s := h.asked.Load() - asked; s != 1 {
		t.Errorf("%d stamps asked for %d GETs arrived while one was in flight, want 1", s, n)
	}
	// The first GET reads alone at its stamp; the 200 share one batch.
	if r := h.atReads.Load() - reads; r != 2 {
		t.Errorf("%d reads of the store for 201 GETs at two stamps, want 2", r)
	}
}

// TestSnapshotReadsAndQueuedWrites: on a shared store, writes a shard
// holds queued run in the group and are not committed under a read that
// arrived before them; a read of a key a queued write touches waits for
// it; a read of other keys leaves them queued, and they still commit once
// the mailbox is empty.
func TestSnapshotReadsAndQueuedWrites(t *testing.T) {
	e, h, reg := heldEngine(t, 1)
	send(t, e, reg, []string{"set x old", "set a old", "set b old"}, nil)
	release := h.hold(t)

	// The read's stamp is held: the SET after it runs but may not commit,
	// and the shard waits there.
	asked := h.asked.Load()
	first := dispatchAll(t, e, reg, []string{"get x", "set x new"}, nil)
	for deadline := time.Now().Add(10 * time.Second); h.asked.Load() == asked; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the GET asked for no stamp")
		}
	}
	time.Sleep(50 * time.Millisecond) // the shard reaches the SET's commit
	// Meanwhile two clients' pipelines queue up behind it; the last
	// message is a read of a key no queued write touches.
	same := dispatchAll(t, e, reg, []string{"set a newer", "get a"}, nil)
	other := dispatchAll(t, e, reg, []string{"set a new", "get b"}, nil)
	select {
	case <-first.done:
		t.Fatal("the SET committed before the stamp of the GET that arrived before it came")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	if got := first.results(t, 2); got[0] != "$3\r\nold\r\n" || got[1] != "+OK\r\n" {
		t.Fatalf("GET x, SET x new = %q: the GET must not see the SET sent after it", got)
	}
	if got := same.results(t, 2); got[0] != "+OK\r\n" || got[1] != "$5\r\nnewer\r\n" {
		t.Fatalf("SET a newer, GET a = %q: the GET must see its client's SET before it, and not the SET after", got)
	}
	if got := other.results(t, 2); got[0] != "+OK\r\n" || got[1] != "$3\r\nold\r\n" {
		t.Fatalf("SET a new, GET b = %q", got)
	}
	if got := send(t, e, reg, []string{"get x", "get a"}, nil); got[0] != "$3\r\nnew\r\n" || got[1] != "$3\r\nnew\r\n" {
		t.Fatalf("GET x, GET a after = %q", got)
	}
}

// TestRunScratchForgetsEachRead: the scratch a snapshot reader keeps from
// one command to the next (its Ctx, its transactions' map of keys looked
// up) carries nothing of one command into the next: a GET that found k
// missing, a SET of k, then a GET run with the same scratch finds the
// value; another database's k stays missing; a read of many keys, whose
// map the scratch drops, leaves the next read right.
func TestRunScratchForgetsEachRead(t *testing.T) {
	e, _, reg := heldEngine(t, 1)
	var sc runScratch
	read := func(db int, line string) string {
		t.Helper()
		col := &collector{replies: map[uint64]string{}, done: make(chan struct{}), want: 1}
		r := request(t, e, reg, col, line)
		r.DB = db
		e.executeIn(r, 0, &sc)
		return col.results(t, 1)[0]
	}
	if got := read(0, "get k"); got != "$-1\r\n" {
		t.Fatalf("GET k before its SET = %q", got)
	}
	send(t, e, reg, []string{"set k v1"}, nil)
	if got := read(0, "get k"); got != "$2\r\nv1\r\n" {
		t.Fatalf("GET k after its SET, same scratch = %q", got)
	}
	if got := read(1, "exists k"); got != ":0\r\n" {
		t.Fatalf("EXISTS k in database 1 = %q", got)
	}
	mget := "mget"
	for i := range 9000 {
		mget += fmt.Sprintf(" m%d", i)
	}
	send(t, e, reg, []string{"set k v2"}, nil)
	if got := read(0, mget); len(got) < 9000 {
		t.Fatalf("MGET of 9,000 keys = %d bytes", len(got))
	}
	if got := read(0, "get k"); got != "$2\r\nv2\r\n" {
		t.Fatalf("GET k after a read of 9,000 keys = %q", got)
	}
}

// TestReadOnlyShardKeepsNoStampsThatCame: a shard that only reads never
// runs anything else, so it never settled, and kept every stamp its reads
// used, each with the values read there: the live heap of a node serving
// only GETs grew by 17 MB every 100,000. 200 GETs one after the other
// (each a stamp of its own) leave at most the stamps not yet come.
func TestReadOnlyShardKeepsNoStampsThatCame(t *testing.T) {
	e, _, reg := heldEngine(t, 1)
	send(t, e, reg, []string{"set k v"}, nil)
	for i := range 200 {
		if got := send(t, e, reg, []string{"get k"}, nil); got[0] != "$1\r\nv\r\n" {
			t.Fatalf("GET %d = %q", i, got[0])
		}
	}
	s := e.shards[0]
	s.mu.Lock()
	n := len(s.snaps)
	s.mu.Unlock()
	if n > 2 {
		t.Fatalf("the shard keeps %d stamps after 200 reads, all of which came", n)
	}
}

// TestStampRunsOnAnIdleRunner: a stamp goes to a stamp runner waiting
// for one (whose stack is grown), and to a goroutine of its own when
// none waits: startStamp never waits.
func TestStampRunsOnAnIdleRunner(t *testing.T) {
	e := &Engine{stampRuns: make(chan *stamp)}
	failed := func() *stamp {
		st := &stamp{ready: make(chan struct{}), ask: func() (uint64, error) { return 0, io.ErrUnexpectedEOF }}
		close(st.ready)
		return st
	}
	got := make(chan *stamp)
	waiting := make(chan struct{})
	go func() {
		close(waiting)
		got <- <-e.stampRuns
	}()
	<-waiting
	st := failed()
	deadline := time.After(10 * time.Second)
	for handed := false; !handed; {
		// The runner may not be receiving yet: a stamp started
		// meanwhile runs on its own goroutine (and comes).
		other := failed()
		e.startStamp(other)
		select {
		case r := <-got:
			if r != other {
				t.Fatalf("the runner got %p, want %p", r, other)
			}
			handed = true
		case <-time.After(time.Millisecond):
			for !other.came.Load() {
				select {
				case r := <-got:
					t.Fatalf("the runner got %p after the stamp ran elsewhere", r)
				case <-deadline:
					t.Fatal("a stamp with no runner waiting never ran")
				default:
					time.Sleep(time.Millisecond)
				}
			}
		case <-deadline:
			t.Fatal("no stamp reached the waiting runner")
		}
	}
	// No runner waits now: the stamp runs at once elsewhere.
	e.startStamp(st)
	for !st.came.Load() {
		select {
		case <-deadline:
			t.Fatal("a stamp with no runner waiting never ran")
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// TestRunScratchRepliesStay: a reader's replies, written with its one
// writer, stay as they were while it writes the next ones (short ones
// in its arena, long ones detached), and a read without scratch gets a
// writer of its own.
func TestRunScratchRepliesStay(t *testing.T) {
	var sc runScratch
	var outs [][]byte
	var want []string
	for i := range 40 {
		w := sc.writer(2)
		v := fmt.Sprintf("v%d", i)
		if i%10 == 9 {
			v = string(make([]byte, arenaReply+i)) // a long one
		}
		w.Bulk([]byte(v))
		out := sc.reply(w)
		outs, want = append(outs, out), append(want, fmt.Sprintf("$%d\r\n%s\r\n", len(v), v))
	}
	_ = append(outs[0], "clobber"...) // a capped slice: appending copies
	for i, out := range outs {
		if string(out) != want[i] {
			t.Fatalf("reply %d became %q", i, out)
		}
	}
	var none *runScratch
	if a, b := none.writer(2), none.writer(2); a == b {
		t.Fatal("reads without scratch share a writer")
	}
}
