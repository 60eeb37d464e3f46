package badger

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Badger's defaults for what Options leave at 0.
const (
	badgerValueLogFileSize = 1<<30 - 1
	badgerMemTableSize     = 64 << 20
)

// fitToVolume sizes what Badger allocates whole to the volume the store
// lives on. Its files are allocated, not sparse (third_party/ristretto):
// at start a value-log file twice ValueLogFileSize and a memtable's log
// twice MemTableSize, and up to five memtables' logs live at once; 128
// MiB of value log alone made a 64 MiB volume fail at start ("fallocate:
// no space left on device"), where Redis starts and serves. When those
// and MinFreeBytes take more than half the room the store has (the
// volume's size, or what is free plus what the data directory holds
// already, whichever is less), they shrink: value-log files to 1/32 of
// the room, memtables to 1/64 (1 MiB at least each), and the free space
// writes need to 1/16 of it, but enough for the next two allocations.
// It reports whether it changed them.
func fitToVolume(o *Options) (changed bool) {
	if o.InMemory || o.Dir == "" {
		return false
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return false // Badger's open reports it
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(o.Dir, &st); err != nil {
		return false
	}
	total, free := int64(st.Blocks)*st.Bsize, int64(st.Bavail)*st.Bsize
	return o.fit(min(total, free+dirBytes(o.Dir)))
}

// fit sizes o's allocations for room bytes (fitToVolume).
func (o *Options) fit(room int64) (changed bool) {
	vlog, mem := o.ValueLogFileSize, o.MemTableSize
	if vlog <= 0 {
		vlog = badgerValueLogFileSize
	}
	if mem <= 0 {
		mem = badgerMemTableSize
	}
	if 2*vlog+5*2*mem+o.MinFreeBytes <= room/2 {
		return false
	}
	clamp := func(v, lo, hi int64) int64 { return min(max(v, lo), hi) }
	o.ValueLogFileSize = clamp(room/32, 1<<20, vlog)
	o.MemTableSize = clamp(room/64, 1<<20, mem)
	if o.MinFreeBytes > 0 {
		o.MinFreeBytes = min(o.MinFreeBytes, max(room/16, 2*(2*o.ValueLogFileSize+2*o.MemTableSize)))
	}
	return true
}

// dirBytes returns the bytes allocated to the files under dir.
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			}
		}
		return nil
	})
	return n
}

// space is the commit path's view of the data directory's free space: a
// write refused under MinFreeBytes must be refused before it commits, not
// at the next health check (a fast writer filled a 64 MiB volume from 12
// MiB free to 0 between two checks, and Badger, unable to flush its
// memtables, lost acknowledged writes).
type space struct {
	mu sync.Mutex
	// left is what commits may still write before the next statfs: a
	// quarter of the free space above the minimum (a committed byte may
	// reach the disk several times: the memtable's log, a table,
	// compactions); checked is when statfs last ran (unix ns).
	left    atomic.Int64
	checked atomic.Int64
	free    int64
}

// spaceCheckEvery bounds how stale the free space a commit is judged by
// may be, whatever the commits wrote (other writers share the volume).
const spaceCheckEvery = 100 * time.Millisecond

// room reports ENOSPC when the data directory's file system has less
// than MinFreeBytes free, for a commit of about n bytes. It runs statfs
// only when the commits since the last one may have used a quarter of
// the margin, or it is spaceCheckEvery old: on a roomy volume, rarely.
func (d *DB) room(n int64) error {
	if d.inMemory || d.minFree <= 0 {
		return nil
	}
	s := &d.space
	now := time.Now().UnixNano()
	if s.left.Add(-n) >= 0 && now-s.checked.Load() < int64(spaceCheckEvery) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.left.Load() < 0 || now-s.checked.Load() >= int64(spaceCheckEvery) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d.dir, &st); err != nil {
			return nil // Check reports what is wrong with the directory
		}
		s.free = int64(st.Bavail) * st.Bsize
		s.left.Store((s.free - d.minFree) / 4)
		s.checked.Store(now)
	}
	if s.free < d.minFree {
		return fmt.Errorf("badger: the data directory's file system has %d MiB free, under storage.badger.min_free_mib (%d MiB on this volume): %w",
			s.free>>20, d.minFree>>20, syscall.ENOSPC)
	}
	return nil
}
