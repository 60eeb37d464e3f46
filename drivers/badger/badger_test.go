package badger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/driverstest"
)

func TestConformanceInMemory(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

func TestConformanceOnDisk(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{Dir: t.TempDir(), Durability: DurabilityEverySec})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestConformanceBig: with big transactions allowed (up to 16 MiB) and a
// small memtable, so that the suite's transactions near its limits go big.
func TestConformanceBig(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{Dir: t.TempDir(), Durability: DurabilityEverySec, MemTableSize: 1 << 20, MaxTxnBytes: 16 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestVersionsSurviveRestartWithClockBack reopens a store with a clock an hour
// in the past and checks versions still grow.
func TestVersionsSurviveRestartWithClockBack(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	for i := 0; i < 100; i++ {
		if last, err = d.NextVersion(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.now = func() time.Time { return time.Now().Add(-time.Hour) }
	v, err := d.NextVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v <= last {
		t.Fatalf("version after restart %d <= %d", v, last)
	}
}

// TestDurabilityAtRunTime: every level can be set while the store runs
// (CONFIG SET appendfsync) and writes commit and survive a restart under
// each; an unknown level is refused.
func TestDurabilityAtRunTime(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, Durability: DurabilityEverySec})
	if err != nil {
		t.Fatal(err)
	}
	for i, level := range []string{DurabilityAlways, DurabilityNo, DurabilityEverySec} {
		if err := d.SetDurability(level); err != nil {
			t.Fatal(err)
		}
		tx, _ := d.Begin(true)
		if err := tx.Set([]byte{'k', byte('0' + i)}, []byte(level)); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("commit under %s: %v", level, err)
		}
	}
	if err := d.SetDurability("sometimes"); err == nil {
		t.Fatal("unknown durability accepted")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	for i, level := range []string{DurabilityAlways, DurabilityNo, DurabilityEverySec} {
		v, err := tx.Get([]byte{'k', byte('0' + i)})
		if err != nil || string(v) != level {
			t.Fatalf("after restart k%d = %q, %v", i, v, err)
		}
	}
}

// TestOpensAfterCrashLeftEmptyFiles: a kill -9 between Badger creating its
// next memtable or value log file and sizing it leaves a 0-byte file; the
// store opens again with its data (badger patch 0005; before it, every
// later start failed on "Create a new file").
func TestOpensAfterCrashLeftEmptyFiles(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, Durability: DurabilityAlways})
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := d.Begin(true)
	if err := tx.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"00500.mem", "000500.vlog"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err = Open(Options{Dir: dir, Durability: DurabilityAlways})
	if err != nil {
		t.Fatalf("open after a crash left empty files: %v", err)
	}
	defer d.Close()
	tx, _ = d.Begin(false)
	defer tx.Rollback()
	if v, err := tx.Get([]byte("k")); err != nil || string(v) != "v" {
		t.Fatalf("k = %q, %v after the restart", v, err)
	}
}

// TestCommitRefusedOnceDirectoryRemoved: once the data directory is moved
// away, the next commit with writes fails with ENOENT (the inotify event is
// read by the commit itself), Check fails, and read-only transactions go on.
func TestCommitRefusedOnceDirectoryRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	d, err := Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	write := func() error {
		tx, _ := d.Begin(true)
		defer tx.Rollback()
		if err := tx.Set([]byte("k"), []byte("v")); err != nil {
			return err
		}
		return tx.Commit()
	}
	if err := write(); err != nil {
		t.Fatal(err)
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := write(); !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("commit after the directory moved: %v, want ENOENT", err)
	}
	if err := d.Check(); !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("Check after the directory moved: %v", err)
	}
	tx, _ := d.Begin(false)
	if v, err := tx.Get([]byte("k")); err != nil || string(v) != "v" {
		t.Fatalf("read after the directory moved: %q %v", v, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("read-only commit: %v", err)
	}
	tx.Rollback()
	if err := os.Rename(dir+".moved", dir); err != nil { // so Close can flush
		t.Fatal(err)
	}
	_ = d.Close()
}

// TestCompactWhileWriting: writers never see Badger's refusal of writes
// while Compact flushes the memtables (they wait for it instead).
func TestCompactWhileWriting(t *testing.T) {
	d, err := Open(Options{Dir: t.TempDir(), Durability: DurabilityNo, MemTableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func(w int) {
			for i := 0; ; i++ {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				tx, _ := d.Begin(true)
				err := tx.Set([]byte(fmt.Sprintf("w%d:%d", w, i%1000)), make([]byte, 100))
				if err == nil {
					err = tx.Commit()
				}
				tx.Rollback()
				if err != nil && !errors.Is(err, drivers.ErrConflict) {
					errs <- fmt.Errorf("writer %d, write %d: %w", w, i, err)
					return
				}
			}
		}(w)
	}
	for i := 0; i < 10; i++ {
		if err := d.Compact(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
