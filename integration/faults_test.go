package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/faulty"
	"github.com/rekv/rekv/node"
)

// startFaulty starts a node on Badger wrapped by the fault injector.
func startFaulty(t *testing.T) (*node.Node, *faulty.Driver) {
	t.Helper()
	cfg := conf.Default()
	cfg.Storage.Badger.Dir = t.TempDir()
	cfg.Storage.Badger.Durability = "no"
	cfg.Actors.Shards = 4
	cfg.Server.Port = freePort(t)
	bd, err := badger.Open(badger.Options{Dir: cfg.Storage.Badger.Dir, Durability: "no", MemTableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	fd := faulty.Wrap(bd)
	n, err := node.StartWithDriver(cfg, "", fd, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = n.Close(ctx)
	})
	return n, fd
}

// waitInfo waits up to 10 s for INFO persistence to contain want.
func waitInfo(t *testing.T, c *raw, want string) {
	t.Helper()
	waitInfoWithin(t, c, want, 10*time.Second)
}

// waitInfoWithin is waitInfo with its own time limit.
func waitInfoWithin(t *testing.T, c *raw, want string, limit time.Duration) {
	t.Helper()
	if !infoWithin(c, want, limit) {
		t.Fatalf("INFO persistence never showed %q:\n%s", want, c.do("INFO", "persistence"))
	}
}

// infoWithin reports whether INFO persistence shows want within limit.
func infoWithin(c *raw, want string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	// The connection's own deadline (dialRaw: a minute from the dial)
	// must not end the wait first.
	_ = c.conn.SetDeadline(deadline.Add(30 * time.Second))
	for !strings.Contains(c.do("INFO", "persistence"), want) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// TestStorageFaults: while the store cannot persist writes, no write is
// acknowledged — the failing ones get an error, the following ones Redis's
// MISCONF —, reads go on, INFO says why; once storage recovers, writes are
// accepted again by themselves, and every acknowledged write is there. A
// failing Check (a data directory gone) stops writes without any command
// failing first.
func TestStorageFaults(t *testing.T) {
	n, fd := startFaulty(t)
	c := dialRaw(t, n.Addr())
	ctx := context.Background()
	const writers, perWriter = 8, 300
	var mu sync.Mutex
	acked := map[string]string{}
	failedOnce := map[string]bool{}
	var misconf, otherErr int
	var wg sync.WaitGroup
	faultAt, healAt := perWriter/3, 2*perWriter/3
	var phase sync.WaitGroup
	phase.Add(writers)
	release := make(chan struct{})
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cl := newClient(t, n.Addr(), 2)
			for i := 0; i < perWriter; i++ {
				if i == faultAt {
					phase.Done()
					<-release
				}
				k, v := fmt.Sprintf("w%d:%d", w, i), fmt.Sprintf("v%d", i)
				err := cl.Set(ctx, k, v, 0).Err()
				mu.Lock()
				switch {
				case err == nil:
					acked[k] = v
				case strings.HasPrefix(err.Error(), "MISCONF "):
					misconf++
					failedOnce[k] = true
				default:
					otherErr++
					failedOnce[k] = true
				}
				mu.Unlock()
				if i == healAt && w == 0 {
					fd.FailCommits(nil)
				}
			}
		}(w)
	}
	phase.Wait()
	fd.FailCommits(fmt.Errorf("disk full: %w", faulty.ErrInjected))
	close(release)
	wg.Wait()
	if misconf == 0 || otherErr == 0 {
		t.Fatalf("during the fault: %d MISCONF, %d other errors: want both (a failing write, then refusals)", misconf, otherErr)
	}
	// Writes resume by themselves once storage recovers.
	waitInfo(t, c, "storage_status:ok\r\n")
	deadline := time.Now().Add(10 * time.Second)
	for c.do("SET", "after", "1") != "+OK\r\n" {
		if time.Now().After(deadline) {
			t.Fatal("writes did not resume after the fault cleared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Every acknowledged write is there; none that failed.
	for k, v := range acked {
		if got := c.do("GET", k); got != fmt.Sprintf("$%d\r\n%s\r\n", len(v), v) {
			t.Fatalf("acknowledged %s=%s lost: GET %q", k, v, got)
		}
	}
	for k := range failedOnce {
		if got := c.do("GET", k); got != "$-1\r\n" {
			t.Fatalf("%s was refused but is stored: %q", k, got)
		}
	}
	info := c.do("INFO", "persistence")
	if !strings.Contains(info, "storage_failures:1\r\n") {
		t.Errorf("INFO persistence after one fault:\n%s", info)
	}
	t.Logf("%d acknowledged, %d refused with MISCONF, %d failed", len(acked), misconf, otherErr)

	// A failing Check: writes stop, reads go on, INFO says why.
	fd.FailCheck(errors.New("data directory gone (injected)"))
	waitInfo(t, c, "storage_status:failed\r\n")
	if got := c.do("SET", "k", "v"); !strings.HasPrefix(got, "-MISCONF rekv cannot persist writes to its storage (data directory gone (injected))") {
		t.Fatalf("SET while Check fails: %q", got)
	}
	if got := c.do("GET", "after"); got != "$1\r\n1\r\n" {
		t.Fatalf("GET while Check fails: %q", got)
	}
	if info := c.do("INFO", "persistence"); !strings.Contains(info, "storage_last_error:data directory gone (injected)\r\n") {
		t.Fatalf("INFO persistence:\n%s", info)
	}
	fd.FailCheck(nil)
	waitInfo(t, c, "storage_status:ok\r\n")
	if got := c.do("SET", "k", "v"); got != "+OK\r\n" {
		t.Fatalf("SET after Check passes again: %q", got)
	}
}

// TestDiskFull fills a small tmpfs under a server process (durability
// always): once free space falls under storage.badger.min_free_mib, writes
// get MISCONF instead of the process dying on Badger's memory-mapped
// files; reads go on; freeing space lets writes resume by themselves; and
// after a kill -9 and a restart every acknowledged write is there. It
// needs to mount a tmpfs (root), as CI has.
func TestDiskFull(t *testing.T) {
	mnt := mountTmpfs(t, "300m")
	// Two files fill 148 MiB: the server starts with 152 MiB free, of
	// which Badger's value log takes 128 at once.
	fillers := []string{filepath.Join(mnt, "filler1"), filepath.Join(mnt, "filler2")}
	for i, mib := range []int{48, 100} {
		if err := os.WriteFile(fillers[i], make([]byte, mib<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(mnt, "data")
	cmd, addr := startChild(t, dir, "always", "12", "2")
	c := dialRaw(t, addr)
	value := strings.Repeat("v", 16<<10)
	var acked []string
	misconf := false
	for i := 0; i < 10000 && !misconf; i++ {
		k := fmt.Sprintf("k%05d", i)
		switch got := c.do("SET", k, value); {
		case got == "+OK\r\n":
			acked = append(acked, k)
		case strings.HasPrefix(got, "-MISCONF"):
			misconf = true
		default:
			t.Logf("SET %s: %q", k, got) // a write caught by the failure: not acknowledged
		}
	}
	if !misconf {
		t.Fatalf("10,000 writes of 16 KiB into 152 MiB of free space were all accepted")
	}
	if got := c.do("GET", acked[0]); got != fmt.Sprintf("$%d\r\n%s\r\n", len(value), value) {
		t.Fatalf("GET while the disk is full: %.40q", got)
	}
	waitInfo(t, c, "storage_status:failed\r\n")
	// Badger's flushes and compactions deferred while the disk was full
	// run once space is freed and take some of it back for a while (CI
	// saw 48 MiB freed and 2 MiB free a minute after, twice): 48 MiB
	// freed, then 100 more if that did not do. Either way writes resume
	// by themselves.
	if err := os.Remove(fillers[0]); err != nil {
		t.Fatal(err)
	}
	if !infoWithin(c, "storage_status:ok\r\n", 30*time.Second) {
		t.Logf("48 MiB freed, still under min_free after 30 s: freeing 100 more")
		if err := os.Remove(fillers[1]); err != nil {
			t.Fatal(err)
		}
		waitInfoWithin(t, c, "storage_status:ok\r\n", 60*time.Second)
	}
	if got := c.do("SET", "after", "1"); got != "+OK\r\n" {
		t.Fatalf("SET after space was freed: %q", got)
	}
	acked = append(acked, "after")
	restartKeepsAcked(t, cmd, dir, []string{"12", "2"}, acked, nil, "the disk filled")
	t.Logf("%d writes acknowledged before the disk filled; all there after a restart", len(acked)-1)
}
