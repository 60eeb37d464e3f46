package state

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/rerr"
)

// BGREWRITEAOF: rekv keeps no append-only file; what rewriting one does
// for Redis — giving back the disk space of overwritten and deleted data
// — is the store's compaction, which Rewriter.Compact runs (Badger's
// value-log and level compaction; a store that compacts itself only
// syncs). It runs in the background, one at a time, after a running
// BGSAVE (scheduled), with Redis's replies and INFO persistence's aof_*
// fields.

// Rewriter runs BGREWRITEAOF.
type Rewriter struct {
	// Compact compacts the store; Saving reports whether a save runs
	// (the rewrite then waits for it); Log reports each rewrite.
	Compact func() error
	Saving  func() bool
	Log     *slog.Logger

	mu        sync.Mutex
	running   bool
	scheduled atomic.Bool
	started   atomic.Int64 // unix ns of the running rewrite; 0: none
	lastOK    atomic.Bool
	lastSecs  atomic.Int64 // duration of the last rewrite; -1: none
	count     atomic.Int64
	failures  atomic.Int64 // consecutive
}

// NewRewriter returns a rewriter with no rewrite done yet.
func NewRewriter(compact func() error, saving func() bool, log *slog.Logger) *Rewriter {
	r := &Rewriter{Compact: compact, Saving: saving, Log: log}
	r.lastOK.Store(true)
	r.lastSecs.Store(-1)
	return r
}

// Rewrite starts a rewrite and returns BGREWRITEAOF's status line.
func (r *Rewriter) Rewrite() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return "", rerr.Errorf("ERR Background append only file rewriting already in progress")
	}
	r.running = true
	wait := r.Saving != nil && r.Saving()
	r.scheduled.Store(wait)
	go r.run()
	if wait {
		return "Background append only file rewriting scheduled", nil
	}
	return "Background append only file rewriting started", nil
}

func (r *Rewriter) run() {
	for r.Saving != nil && r.Saving() {
		time.Sleep(10 * time.Millisecond)
	}
	r.scheduled.Store(false)
	t0 := time.Now()
	r.started.Store(t0.UnixNano())
	var err error
	if r.Compact != nil {
		err = r.Compact()
	}
	r.lastSecs.Store(int64(time.Since(t0).Seconds()))
	r.lastOK.Store(err == nil)
	r.count.Add(1)
	if err != nil {
		r.failures.Add(1)
		if r.Log != nil {
			r.Log.Warn("BGREWRITEAOF: the store's compaction failed", "err", err)
		}
	} else {
		r.failures.Store(0)
	}
	r.started.Store(0)
	r.mu.Lock()
	r.running = false
	r.mu.Unlock()
}

// Info returns INFO persistence's aof_* lines of the rewrites.
func (r *Rewriter) Info() [][2]any {
	status, inProgress, cur := backgroundFigures(&r.lastOK, &r.started)
	scheduled := 0
	if r.scheduled.Load() {
		scheduled = 1
	}
	return [][2]any{{"aof_rewrite_in_progress", inProgress}, {"aof_rewrite_scheduled", scheduled},
		{"aof_last_rewrite_time_sec", r.lastSecs.Load()}, {"aof_current_rewrite_time_sec", cur},
		{"aof_last_bgrewrite_status", status}, {"aof_rewrites", r.count.Load()},
		{"aof_rewrites_consecutive_failures", r.failures.Load()}}
}
