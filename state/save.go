package state

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/atomicfile"
)

// SAVE and BGSAVE write a consistent backup of the whole store to
// Saver.File with the driver's backup stream (Saver.Backup): first to a
// temporary file beside it, synced, then renamed over it, so the file is
// always a whole backup. Starting a node with it as
// storage.badger.restore loads it into an empty store. SAVE answers once
// the file is written; BGSAVE answers at once and saves in the
// background; only one save runs at a time (BGSAVE SCHEDULE queues one
// after it, as Redis does). The store itself is always durable: a backup
// is a copy to keep or move, not what makes writes survive.

// Saver runs SAVE and BGSAVE and keeps what INFO persistence reports.
type Saver struct {
	// File is where backups go; Backup writes the store's backup stream
	// (nil: SAVE answers NoBackup); Log reports each save.
	File     string
	Backup   func(io.Writer) error
	NoBackup string
	Log      *slog.Logger

	mu        sync.Mutex
	running   bool
	scheduled bool
	started   atomic.Int64 // unix ns of the running save; 0: none
	last      atomic.Int64 // unix seconds of the last successful save (LASTSAVE)
	lastOK    atomic.Bool
	lastSecs  atomic.Int64 // duration of the last background save; -1: none
	saves     atomic.Int64
	dirty     atomic.Int64 // keys written since the last save began
}

// Start sets the saver's clock: LASTSAVE answers start until a save
// succeeds.
func (v *Saver) Start(start time.Time) {
	v.last.Store(start.Unix())
	v.lastOK.Store(true)
	v.lastSecs.Store(-1)
}

// Dirty counts n keys written since the last save.
func (v *Saver) Dirty(n int64) { v.dirty.Add(n) }

// LastSave returns the unix time of the last successful save (the start
// before any).
func (v *Saver) LastSave() int64 { return v.last.Load() }

// Running reports whether a save runs now.
func (v *Saver) Running() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.running
}

// Save runs SAVE (background false) or BGSAVE (schedule: BGSAVE
// SCHEDULE) and returns the status reply.
func (v *Saver) Save(background, schedule bool) (string, error) {
	if v.Backup == nil {
		return "", rerr.Errorf("ERR %s", v.NoBackup)
	}
	v.mu.Lock()
	if v.running {
		if background && schedule {
			v.scheduled = true
			v.mu.Unlock()
			return "Background saving scheduled", nil
		}
		v.mu.Unlock()
		return "", rerr.Errorf("ERR Background save already in progress")
	}
	v.running = true
	v.mu.Unlock()
	if !background {
		err := v.run(false)
		if err != nil {
			return "", rerr.Errorf("ERR %v", err)
		}
		return "OK", nil
	}
	go func() { _ = v.run(true) }()
	return "Background saving started", nil
}

// run writes the backup, records the outcome and runs a scheduled save
// after it. The caller set v.running.
func (v *Saver) run(background bool) error {
	for {
		start := time.Now()
		v.started.Store(start.UnixNano())
		dirty := v.dirty.Swap(0)
		err := writeBackup(v.File, v.Backup)
		v.started.Store(0)
		if err != nil {
			v.dirty.Add(dirty) // still unsaved
			v.Log.Error("save failed", "file", v.File, "err", err)
		} else {
			v.last.Store(time.Now().Unix())
			v.saves.Add(1)
			v.Log.Info("backup saved", "file", v.File, "took", time.Since(start))
		}
		v.lastOK.Store(err == nil)
		if background {
			v.lastSecs.Store(int64(time.Since(start).Seconds()))
		}
		v.mu.Lock()
		again := v.scheduled
		v.scheduled = false
		v.running = again
		v.mu.Unlock()
		if !again {
			return err
		}
		background = true
	}
}

// writeBackup writes backup's stream to file through a synced temporary
// file renamed over it.
func writeBackup(file string, backup func(io.Writer) error) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	if err := atomicfile.Write(file, 0o600, backup); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// backgroundFigures are INFO's figures of a background job (a save, a
// rewrite): the last one's status ("ok", "err"), whether one runs (1, 0)
// and for how many seconds so far (-1: none runs), from its outcome and
// its start (unix ns; 0: none runs).
func backgroundFigures(lastOK *atomic.Bool, started *atomic.Int64) (status string, inProgress int, cur int64) {
	status, cur = "ok", -1
	if !lastOK.Load() {
		status = "err"
	}
	if t := started.Load(); t != 0 {
		inProgress, cur = 1, int64(time.Since(time.Unix(0, t)).Seconds())
	}
	return status, inProgress, cur
}

// Info returns INFO persistence's save figures.
func (v *Saver) Info() [][2]any {
	status, inProgress, cur := backgroundFigures(&v.lastOK, &v.started)
	return [][2]any{{"rdb_changes_since_last_save", v.dirty.Load()}, {"rdb_bgsave_in_progress", inProgress},
		{"rdb_last_save_time", v.last.Load()}, {"rdb_last_bgsave_status", status},
		{"rdb_last_bgsave_time_sec", v.lastSecs.Load()}, {"rdb_current_bgsave_time_sec", cur},
		{"rdb_saves", v.saves.Load()}}
}
