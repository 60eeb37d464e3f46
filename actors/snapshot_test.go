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
	m, err := tikv.NewMock()
	if err != nil {
		t.Fatal(err)
	}
	db, err := m.Open(tikv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &heldStamps{DB: db, open: make(chan struct{})}
	reg := command.NewRegistry(strings.Commands(), keys.Commands())
	e, err := New(Options{Shards: 4, Shared: true, ScanCursors: 10}, h, reg, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Stop(context.Background())
		_ = db.Close()
		_ = m.Close()
	})

	const n = 200
	var sets []string
	for i := range n {
		sets = append(sets, fmt.Sprintf("set k%d v%d", i, i))
	}
	close(h.open)
	send(t, e, reg, sets, nil)
	hold := make(chan struct{}) // stamps asked from now on wait
	h.open = hold
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release) // a failed test must not leave the engine's Stop waiting

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
