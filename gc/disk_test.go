package gc_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// dirSize returns the bytes a directory really occupies on disk.
func dirSize(t testing.TB, dir string) int64 {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += diskUsage(info)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// TestDiskSpaceComesBack loads collection data (REKVTEST_DISK_MIB, e.g.
// 1024), deletes it, lets the GC run and checks the Badger directory
// shrinks back to within 2x of its size before the load. It takes minutes,
// so it only runs when REKVTEST_DISK_MIB is set.
func TestDiskSpaceComesBack(t *testing.T) {
	mib, _ := strconv.Atoi(os.Getenv("REKVTEST_DISK_MIB"))
	if mib <= 0 {
		t.Skip("set REKVTEST_DISK_MIB (e.g. 1024) to run the disk-space test")
	}
	cfg := testConfig(t, 10*time.Millisecond)
	dir := cfg.Storage.Badger.Dir
	cfg.Storage.Badger.ValueLogGCInterval = 10 * time.Second
	cfg.GC.BatchSize = 5000
	cfg.GC.CompactAfterKeys = 100_000
	n, c := startCfg(t, cfg, nil)
	ctx := context.Background()
	// A baseline that stays: 16 MiB of strings.
	for i := 0; i < 16; i++ {
		p := c.Pipeline()
		for j := 0; j < 1024; j++ {
			b := make([]byte, 1024)
			for k := range b {
				b[k] = byte(rand.Uint32())
			}
			p.Set(ctx, fmt.Sprintf("base%d-%d", i, j), b, 0)
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * time.Second)
	before := dirSize(t, dir)

	// Incompressible values, so sizes on disk are real.
	val := func() []byte {
		b := make([]byte, 1000)
		for i := range b {
			b[i] = byte(rand.Uint32())
		}
		return b
	}
	members := mib << 20 / 1024 // ~1 KiB per member with its key
	t0 := time.Now()
	for i := 0; i < members; i += 500 {
		p := c.Pipeline()
		for j := i; j < i+500 && j < members; j += 100 {
			args := make([]any, 0, 200)
			for k := j; k < j+100 && k < members; k++ {
				args = append(args, fmt.Sprintf("m%09d", k), val())
			}
			p.HSet(ctx, fmt.Sprint("h", k2(j)), args...)
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	loaded := dirSize(t, dir)
	t.Logf("loaded %d members (%d MiB of values) in %v: dir %d MiB (before %d MiB)",
		members, mib, time.Since(t0).Round(time.Second), loaded>>20, before>>20)
	for h := 0; h < 1000; h++ {
		if err := c.Del(ctx, fmt.Sprint("h", h)).Err(); err != nil {
			t.Fatal(err)
		}
	}
	t1 := time.Now()
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if n.GCStats.BacklogVersions.Load() == 0 && n.GCStats.SubkeysDeleted.Load() >= int64(members) {
			break
		}
		time.Sleep(time.Second)
	}
	t.Logf("GC drained in %v: %d sub-keys deleted", time.Since(t1).Round(time.Second), n.GCStats.SubkeysDeleted.Load())
	var after int64
	for time.Now().Before(deadline) {
		after = dirSize(t, dir)
		t.Logf("%v after the delete: dir %d MiB", time.Since(t1).Round(time.Second), after>>20)
		if after <= 2*before {
			break
		}
		time.Sleep(10 * time.Second)
	}
	t.Logf("dir after delete + GC: %d MiB (%.2fx the pre-load %d MiB) after %v",
		after>>20, float64(after)/float64(before), before>>20, time.Since(t1).Round(time.Second))
	if after > 2*before {
		t.Fatalf("dir %d bytes > 2x pre-load %d bytes", after, before)
	}
}

// k2 spreads members over 1,000 hashes.
func k2(i int) int { return (i / 100) % 1000 }

// diskUsage is the space a file's blocks take (sparse files count less).
func diskUsage(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
