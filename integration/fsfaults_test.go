package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// mountTmpfs mounts a tmpfs of size (mount's syntax: "200m") for the test
// and returns its mount point; it skips the test where it cannot (root is
// needed; CI has it).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	mnt := filepath.Join(t.TempDir(), "fs")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	return mnt
}

// mountExt4 makes a 1 GiB ext4 file system in a loop file, mounted with
// errors=remount-ro, and returns its mount point and the name of its
// block device under /sys/fs/ext4. It skips the test where it cannot
// (root, mkfs.ext4 and loop devices are needed; CI has them).
func mountExt4(t *testing.T) (mnt, dev string) {
	t.Helper()
	base := t.TempDir()
	img, mnt := filepath.Join(base, "fs.img"), filepath.Join(base, "fs")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(img)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(1 << 30) // sparse
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Skipf("cannot make an ext4 file system here: %v %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop,errors=remount-ro", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a loop file system here (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	out, err := exec.Command("losetup", "-j", img).Output()
	if err != nil || !strings.Contains(string(out), ":") {
		t.Skipf("cannot find the loop device: %v %s", err, out)
	}
	dev = filepath.Base(strings.SplitN(string(out), ":", 2)[0])
	if _, err := os.Stat(filepath.Join("/sys/fs/ext4", dev, "trigger_fs_error")); err != nil {
		t.Skipf("this kernel cannot trigger an ext4 error: %v", err)
	}
	return mnt, dev
}

// restartKeepsAcked kills the server process cmd, runs between (if set),
// starts a server on dir again (durability always, extra as startChild's)
// and fails unless every acknowledged key is there; after says what
// happened to the store.
func restartKeepsAcked(t *testing.T, cmd *exec.Cmd, dir string, extra []string, acked []string, between func(), after string) {
	t.Helper()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if between != nil {
		between()
	}
	_, addr := startChild(t, dir, "always", extra...)
	c := dialRaw(t, addr)
	for _, k := range acked {
		if got := c.do("EXISTS", k); got != ":1\r\n" {
			t.Fatalf("acknowledged %s lost after %s and a kill -9 (of %d)", k, after, len(acked))
		}
	}
}

// TestReadOnlyDataDir: the data directory's file system turns read-only
// under a live server (ext4 remounts itself read-only on an error, as it
// does on a failing disk). Writes get MISCONF — not "ERR internal error",
// and the process does not die however many follow —, reads go on, INFO
// says why, and after a kill -9, a check of the file system and a restart
// every acknowledged write is there.
func TestReadOnlyDataDir(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a file system and starts server processes")
	}
	mnt, dev := mountExt4(t)
	dir := filepath.Join(mnt, "data")
	cmd, addr := startChild(t, dir, "always", "16", "16")
	c := dialRaw(t, addr)
	var acked []string
	for i := 0; i < 2000; i++ {
		k := fmt.Sprintf("before:%05d", i)
		if got := c.do("SET", k, "v"); got != "+OK\r\n" {
			t.Fatalf("SET %s before the fault: %q", k, got)
		}
		acked = append(acked, k)
	}
	if err := os.WriteFile(filepath.Join("/sys/fs/ext4", dev, "trigger_fs_error"), []byte("test\n"), 0o200); err != nil {
		t.Fatal(err)
	}
	misconf, other := 0, map[string]int{}
	for i := 0; i < 20000; i++ {
		k := fmt.Sprintf("after:%05d", i)
		switch got := c.do("SET", k, "v"); {
		case got == "+OK\r\n":
			acked = append(acked, k) // acknowledged: it must survive
		case strings.HasPrefix(got, "-MISCONF "):
			misconf++
		default:
			other[got]++
		}
	}
	if misconf < 19000 || len(other) > 0 {
		t.Fatalf("20,000 SETs on a read-only file system: %d MISCONF, %d acknowledged, others %v", misconf, len(acked)-2000, other)
	}
	if got := c.do("GET", acked[0]); got != "$1\r\nv\r\n" {
		t.Fatalf("GET on a read-only file system: %q", got)
	}
	if info := c.do("INFO", "persistence"); !strings.Contains(info, "storage_status:failed") || !strings.Contains(info, "read-only file system") {
		t.Fatalf("INFO persistence does not say the store failed for the read-only file system:\n%s", info)
	}
	if got := c.do("PING"); got != "+PONG\r\n" {
		t.Fatalf("PING: %q", got)
	}
	restartKeepsAcked(t, cmd, dir, []string{"16", "16"}, acked, func() {
		img := filepath.Join(filepath.Dir(mnt), "fs.img")
		for _, step := range [][]string{{"umount", mnt}, {"e2fsck", "-fy", img}, {"mount", "-o", "loop", img, mnt}} {
			if out, err := exec.Command(step[0], step[1:]...).CombinedOutput(); err != nil && step[0] != "e2fsck" {
				t.Fatalf("%v: %v %s", step, err, out)
			}
		}
	}, "the file system went read-only")
	t.Logf("%d writes acknowledged, %d after the file system went read-only; %d MISCONF; all there after a restart",
		len(acked), len(acked)-2000, misconf)
}

// TestDataDirRemoved: the data directory removed (rm -rf) or moved away
// under a live server while clients write. No write sent after the removal
// finished is acknowledged — each gets MISCONF, the first one too (the
// commit path reads the kernel's inotify events before committing) —,
// reads of what is cached go on, and the server stays up.
func TestDataDirRemoved(t *testing.T) {
	for _, how := range []string{"removed", "moved"} {
		t.Run(how, func(t *testing.T) {
			// A process: Badger's Close never returns once its files are
			// gone (it retries its flush), so the test kills the server.
			dir := filepath.Join(t.TempDir(), "data")
			_, addr := startChild(t, dir, "everysec")
			var removedAt atomic.Int64 // unix ns once the removal returned
			var wg sync.WaitGroup
			var lateAcks, misconf atomic.Int64
			for w := 0; w < 4; w++ {
				c := dialRaw(t, addr)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 200_000; i++ {
						sent := time.Now().UnixNano()
						got := c.do("SET", fmt.Sprintf("w%d:%d", w, i), "v")
						r := removedAt.Load()
						switch {
						case got == "+OK\r\n" && r != 0 && sent > r:
							lateAcks.Add(1)
						case strings.HasPrefix(got, "-MISCONF "):
							misconf.Add(1)
						}
						if r != 0 && time.Now().UnixNano() > r+int64(300*time.Millisecond) {
							return
						}
					}
				}()
			}
			time.Sleep(300 * time.Millisecond)
			var err error
			if how == "removed" {
				err = os.RemoveAll(dir)
			} else {
				err = os.Rename(dir, dir+".old")
			}
			if err != nil {
				t.Fatal(err)
			}
			removedAt.Store(time.Now().UnixNano())
			wg.Wait()
			c := dialRaw(t, addr)
			if got := c.do("SET", "after", "v"); !strings.HasPrefix(got, "-MISCONF ") {
				t.Fatalf("SET after the data directory was %s: %q", how, got)
			}
			if lateAcks.Load() > 0 || misconf.Load() == 0 {
				t.Fatalf("%d writes sent after the data directory was %s were acknowledged (%d MISCONF)", lateAcks.Load(), how, misconf.Load())
			}
			if got := c.do("PING"); got != "+PONG\r\n" {
				t.Fatalf("PING: %q", got)
			}
			t.Logf("data directory %s under 4 writers: %d MISCONF, none acknowledged after", how, misconf.Load())
		})
	}
}

// TestTmpfsFull: another process fills the data directory's tmpfs to the
// last block in one step (fallocate) while four clients write. Badger
// writes through memory maps, and a write into a page a full tmpfs cannot
// back used to kill the server with SIGBUS; its files' blocks are now
// allocated up front (third_party/ristretto), so the server lives: writes
// get MISCONF, reads go on, freeing the space lets writes resume by
// themselves, and after a kill -9 and a restart every acknowledged write
// is there.
func TestTmpfsFull(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a tmpfs and starts server processes")
	}
	mnt := mountTmpfs(t, "320m")
	dir := filepath.Join(mnt, "data")
	cmd, addr := startChild(t, dir, "always", "16", "16")
	var mu sync.Mutex
	var acked []string
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		c := dialRaw(t, addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1_000_000 && !stop.Load(); i++ {
				k := fmt.Sprintf("w%d:%d", w, i)
				if c.do("SET", k, strings.Repeat("v", 100)) == "+OK\r\n" {
					mu.Lock()
					acked = append(acked, k)
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	var st syscall.Statfs_t
	if err := syscall.Statfs(mnt, &st); err != nil {
		t.Fatal(err)
	}
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fallocate(int(filler.Fd()), 0, 0, int64(st.Bavail)*st.Bsize-16<<10); err != nil {
		t.Fatalf("filling the tmpfs: %v", err)
	}
	filler.Close()
	time.Sleep(time.Second) // the writers go on against the full tmpfs
	stop.Store(true)
	wg.Wait()
	c := dialRaw(t, addr)
	if got := c.do("PING"); got != "+PONG\r\n" {
		t.Fatalf("the server did not survive a full tmpfs: PING = %q", got)
	}
	if got := c.do("SET", "full", "v"); !strings.HasPrefix(got, "-MISCONF ") {
		t.Fatalf("SET on a full tmpfs: %q", got)
	}
	if got := c.do("GET", acked[0]); got != "$100\r\n"+strings.Repeat("v", 100)+"\r\n" {
		t.Fatalf("GET on a full tmpfs: %.40q", got)
	}
	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	waitInfo(t, c, "storage_status:ok\r\n")
	if got := c.do("SET", "after", "v"); got != "+OK\r\n" {
		t.Fatalf("SET after the space was freed: %q", got)
	}
	acked = append(acked, "after")
	restartKeepsAcked(t, cmd, dir, []string{"16", "16"}, acked, nil, "the tmpfs filled")
	t.Logf("%d writes acknowledged from 4 clients around the tmpfs filling up; all there after a restart", len(acked))
}
