package faulty

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/drivers"
)

// Driver is a drivers.Driver whose faults the test controls.
type Driver struct {
	inner     drivers.Driver
	commitErr atomic.Pointer[error]
	checkErr  atomic.Pointer[error]
	slow      atomic.Int64 // nanoseconds each writing commit waits
	mu        sync.Mutex
	hang      chan struct{} // Close waits on it while set
	// Commits counts commits that reached the inner store.
	Commits atomic.Int64
}

// Wrap returns inner with no fault injected.
func Wrap(inner drivers.Driver) *Driver { return &Driver{inner: inner} }

// FailCommits makes every commit of a writing transaction fail with err
// (nil: commits work again). Nothing of a failed commit is stored.
func (d *Driver) FailCommits(err error) { d.commitErr.Store(ptr(err)) }

// SlowCommits delays every commit of a writing transaction by wait before
// it reaches the inner store (0: no delay).
func (d *Driver) SlowCommits(wait time.Duration) { d.slow.Store(int64(wait)) }

// FailCheck makes Check report err (nil: the inner driver's Check again).
func (d *Driver) FailCheck(err error) { d.checkErr.Store(ptr(err)) }

// HangClose makes Close block until the returned function is called.
func (d *Driver) HangClose() (release func()) {
	ch := make(chan struct{})
	d.mu.Lock()
	d.hang = ch
	d.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func ptr(err error) *error {
	if err == nil {
		return nil
	}
	return &err
}

// Begin implements drivers.Driver.
func (d *Driver) Begin(writable bool) (drivers.Txn, error) {
	tx, err := d.inner.Begin(writable)
	if err != nil {
		return nil, err
	}
	return &txn{Txn: tx, d: d, writable: writable}, nil
}

// NextVersion implements drivers.Driver.
func (d *Driver) NextVersion() (uint64, error) { return d.inner.NextVersion() }

// Close implements drivers.Driver, hanging first if HangClose asked.
func (d *Driver) Close() error {
	d.mu.Lock()
	hang := d.hang
	d.mu.Unlock()
	if hang != nil {
		<-hang
	}
	return d.inner.Close()
}

// Check implements drivers.Checker.
func (d *Driver) Check() error {
	if e := d.checkErr.Load(); e != nil {
		return *e
	}
	if c, ok := d.inner.(drivers.Checker); ok {
		return c.Check()
	}
	return nil
}

type txn struct {
	drivers.Txn
	d        *Driver
	writable bool
	wrote    bool
}

func (t *txn) Set(key, value []byte) error {
	t.wrote = true
	return t.Txn.Set(key, value)
}

func (t *txn) Delete(key []byte) error {
	t.wrote = true
	return t.Txn.Delete(key)
}

func (t *txn) Commit() error {
	if e := t.d.commitErr.Load(); e != nil && t.writable && t.wrote {
		t.Txn.Rollback()
		return *e
	}
	if w := t.d.slow.Load(); w > 0 && t.writable && t.wrote {
		time.Sleep(time.Duration(w))
	}
	if err := t.Txn.Commit(); err != nil {
		return err
	}
	if t.wrote {
		t.d.Commits.Add(1)
	}
	return nil
}

// ErrInjected is the error tests inject by default.
var ErrInjected = errors.New("faulty: injected storage failure")
