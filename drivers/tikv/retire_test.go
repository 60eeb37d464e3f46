package tikv

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/rekv/rekv/drivers"

	tikvstore "github.com/tikv/client-go/v2/tikv"
	"github.com/tikv/client-go/v2/tikvrpc"
)

// slowCommit holds each commit request (the second phase, after the
// prewrite) for a while, as a store that just came back does, giving up
// when its context ends, as gRPC does. arrived hears each.
type slowCommit struct {
	tikvstore.Client
	arrived chan<- struct{}
}

func (s slowCommit) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	if req.Type == tikvrpc.CmdCommit {
		s.arrived <- struct{}{}
		select {
		case <-time.After(retireQuiet / 4):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.Client.SendRequest(ctx, addr, req, timeout)
}

// hijackedTxn begins a transaction on a client of mock m whose requests
// go through wrap, and returns both.
func hijackedTxn(t *testing.T, m *Mock, wrap func(tikvstore.Client) tikvstore.Client, writable bool) (*txn, *client) {
	t.Helper()
	s, err := m.open(func(c tikvstore.Client) tikvstore.Client { return wrap(sharedClient{c}) })
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	o.fill()
	d := &DB{opts: o}
	c := newClient(s)
	tx, err := d.beginOn(c, c.ctx, time.Minute, writable)
	if err != nil {
		t.Fatal(err)
	}
	return tx, c
}

// newMock is NewMock, closed when t ends.
func newMock(t *testing.T) *Mock {
	t.Helper()
	m, err := NewMock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// TestRetireLetsCommitsEnd: a client replaced while one of its commits
// is between its prewrite and its commit lets it end, then stops. Cut
// off, the commit would leave its locks for every later write of the key
// to wait out (3 s).
func TestRetireLetsCommitsEnd(t *testing.T) {
	arrived := make(chan struct{}, 4)
	tx, c := hijackedTxn(t, newMock(t), func(c tikvstore.Client) tikvstore.Client { return slowCommit{c, arrived} }, true)
	if err := tx.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() { committed <- tx.Commit() }()
	<-arrived // prewritten; the commit request is on its way
	retired := make(chan struct{})
	start := time.Now()
	go func() { c.retire(time.Minute); close(retired) }()
	if err := <-committed; err != nil {
		t.Fatalf("a commit under way on a retired client failed: %v", err)
	}
	select {
	case <-retired:
	case <-time.After(10 * time.Second):
		t.Fatal("the retired client was not stopped")
	}
	if c.ctx.Err() == nil {
		t.Fatal("the retired client's calls were not ended")
	}
	t.Logf("retired %v after the commit began its second phase", time.Since(start).Round(time.Millisecond))
}

// queuedPrewrites answers the prewrite requests one at a time, each
// after step, as a store busy with a big commit does: its prewrites keep
// being answered, but they take long in all.
type queuedPrewrites struct {
	tikvstore.Client
	mu      *sync.Mutex
	step    time.Duration
	arrived chan<- struct{}
}

func (q queuedPrewrites) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	if req.Type == tikvrpc.CmdPrewrite {
		select {
		case q.arrived <- struct{}{}:
		default:
		}
		q.mu.Lock()
		time.Sleep(q.step)
		q.mu.Unlock()
	}
	return q.Client.SendRequest(ctx, addr, req, timeout)
}

// TestRetireLetsBusyCommitsEnd: a client replaced while one of its
// commits is under way and moving — its prewrites answered one after
// the other, each within retireQuiet, over 2 s in all — lets it end. The
// health loop replaces a client that is merely busy (its probe queued
// behind a 100 MiB commit's prewrites) when a new client writes first;
// cut off after a fixed second, such a commit failed as undetermined.
func TestRetireLetsBusyCommitsEnd(t *testing.T) {
	arrived := make(chan struct{}, 1)
	tx, c := hijackedTxn(t, newMock(t), func(c tikvstore.Client) tikvstore.Client {
		return queuedPrewrites{c, new(sync.Mutex), retireQuiet / 4, arrived}
	}, true)
	// Values of 20 KiB go out one per prewrite batch (client-go batches
	// 16 KiB): 40 batches of 50 ms.
	value := bytes.Repeat([]byte("v"), 20<<10)
	for i := range 40 {
		if err := tx.Set([]byte{'k', byte(i)}, value); err != nil {
			t.Fatal(err)
		}
	}
	committed := make(chan error, 1)
	start := time.Now()
	go func() { committed <- tx.Commit() }()
	<-arrived
	c.replaced.Store(true)
	retired := make(chan struct{})
	go func() { c.retire(time.Minute); close(retired) }()
	if err := <-committed; err != nil {
		t.Fatalf("a moving commit on a retired client failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	<-retired
	t.Logf("the commit ended %v after it began", time.Since(start).Round(time.Millisecond))
}

// heldGets holds each Get request until its context ends, as a store
// whose answer is queued behind a big transfer.
type heldGets struct {
	tikvstore.Client
	arrived chan<- struct{}
}

func (h heldGets) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	if req.Type == tikvrpc.CmdGet {
		h.arrived <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return h.Client.SendRequest(ctx, addr, req, timeout)
}

// TestReadOnReplacedClientRetries: a read cut off because Renew replaced
// its client fails as a conflict, which the engine retries (on the new
// client); a read cut off by Close stays unavailable.
func TestReadOnReplacedClientRetries(t *testing.T) {
	m := newMock(t)
	for _, replaced := range []bool{true, false} {
		arrived := make(chan struct{}, 1)
		tx, c := hijackedTxn(t, m, func(c tikvstore.Client) tikvstore.Client { return heldGets{c, arrived} }, false)
		got := make(chan error, 1)
		go func() { _, err := tx.Get([]byte("k")); got <- err }()
		<-arrived
		if replaced {
			c.replaced.Store(true)
			c.retire(time.Minute)
		} else {
			c.stop()
			_ = c.store.Close()
		}
		err := <-got
		if errors.Is(err, drivers.ErrConflict) != replaced {
			t.Errorf("replaced %v: the cut-off read's error %v; a conflict: %v", replaced, err, errors.Is(err, drivers.ErrConflict))
		}
		if !replaced && !errors.Is(err, drivers.ErrUnavailable) {
			t.Errorf("a read cut off by Close: %v, not unavailable", err)
		}
	}
}
