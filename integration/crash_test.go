package integration

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// crashChildEnv makes the test binary run a server instead of tests:
// "dir|durability|port[|min free MiB|memtable MiB]".
const crashChildEnv = "REKV_CRASH_CHILD"

// childMemoryLimitEnv sets such a server's runtime.memory_limit_mib.
const childMemoryLimitEnv = "REKVTEST_CHILD_MEMORY_LIMIT_MIB"

func crashChild(spec string) int {
	parts := strings.Split(spec, "|")
	cfg := conf.Default()
	cfg.Storage.Badger.Dir, cfg.Storage.Badger.Durability = parts[0], parts[1]
	cfg.Server.Port, _ = strconv.Atoi(parts[2])
	cfg.Storage.Badger.MemTableMiB = 16
	if len(parts) >= 5 {
		cfg.Storage.Badger.MinFreeMiB, _ = strconv.ParseInt(parts[3], 10, 64)
		cfg.Storage.Badger.MemTableMiB, _ = strconv.ParseInt(parts[4], 10, 64)
	}
	cfg.Actors.Shards = 4
	if mib, err := strconv.ParseInt(os.Getenv(childMemoryLimitEnv), 10, 64); err == nil {
		cfg.Runtime.MemoryLimitMiB = mib
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	node.ApplyRuntime(cfg.Runtime, log) // as main.go does
	defer node.StartIdleRelease(cfg.Runtime, log)()
	if _, err := node.Start(cfg, "", log); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	select {} // until killed
}

// startChild runs a server process on dir and returns it once it listens;
// extra are the optional spec fields (min free MiB, memtable MiB).
func startChild(t *testing.T, dir, durability string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	port := freePort(t)
	spec := fmt.Sprintf("%s|%s|%d", dir, durability, port)
	for _, e := range extra {
		spec += "|" + e
	}
	return startProcess(t, port, crashChildEnv+"="+spec)
}

// startProcess runs this test binary as a server on port (env selects
// which: crashChildEnv, loadedChildEnv) and returns it once it says ready.
func startProcess(t *testing.T, port int, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				ready <- false
				return
			}
			if strings.TrimSpace(line) == "ready" {
				ready <- true
				_, _ = io.Copy(io.Discard, r)
				return
			}
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("server process did not start")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("server process did not start in 60 s")
	}
	return cmd, fmt.Sprintf("127.0.0.1:%d", port)
}

type ack struct {
	n  int // the write's sequence number within its client (0, 1, ...)
	at time.Time
}

// TestCrashKeepsAcknowledgedWrites kill -9s a server under load from 16
// clients and restarts it on the same directory. Each client writes, in
// order, INCR c:i, RPUSH l:i n, SADD s:i m:n and HSET h:i f:n n, recording
// each acknowledged write. After the restart: with durability always no
// acknowledged write is lost; with everysec only the last ~1 s may be; and
// every collection's size equals its member count, with members forming a
// prefix of what was written (no half-applied command).
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills server processes")
	}
	for _, durability := range []string{"always", "everysec"} {
		t.Run(durability, func(t *testing.T) {
			dir := t.TempDir()
			cmd, addr := startChild(t, dir, durability)
			const clients = 16
			acks := make([][]ack, clients)
			var wg sync.WaitGroup
			stop := time.Now().Add(30 * time.Second)
			for i := 0; i < clients; i++ {
				c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, PoolSize: 1,
					ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second})
				defer c.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx := context.Background()
					for n := 0; n < 1_000_000 && time.Now().Before(stop); n++ {
						var err error
						switch n % 4 {
						case 0:
							err = c.Incr(ctx, fmt.Sprint("c:", i)).Err()
						case 1:
							err = c.RPush(ctx, fmt.Sprint("l:", i), n).Err()
						case 2:
							err = c.SAdd(ctx, fmt.Sprint("s:", i), fmt.Sprint("m:", n)).Err()
						case 3:
							err = c.HSet(ctx, fmt.Sprint("h:", i), fmt.Sprint("f:", n), n).Err()
						}
						if err != nil {
							return // the server is gone
						}
						acks[i] = append(acks[i], ack{n, time.Now()})
					}
				}()
			}
			time.Sleep(1500 * time.Millisecond)
			killed := time.Now()
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			_ = cmd.Wait()
			wg.Wait()

			_, addr = startChild(t, dir, durability)
			c := newClient(t, addr, 2)
			ctx := context.Background()
			total, lost := 0, 0
			for i := 0; i < clients; i++ {
				total += len(acks[i])
				survived := survivors(t, c, ctx, i)
				lastAcked := -1
				if len(acks[i]) > 0 {
					lastAcked = acks[i][len(acks[i])-1].n
				}
				lost += max(0, lastAcked+1-survived)
				mustKeep := lastAcked // always: every acknowledged write
				if durability == "everysec" {
					mustKeep = -1 // everysec: those acknowledged 2 s (1 s + slack) before the kill
					for _, a := range acks[i] {
						if a.at.Before(killed.Add(-2 * time.Second)) {
							mustKeep = a.n
						}
					}
				}
				if survived < mustKeep+1 {
					t.Errorf("client %d: %d writes survived, but %d were acknowledged (must keep the first %d)",
						i, survived, lastAcked+1, mustKeep+1)
				}
			}
			t.Logf("durability %s: %d acknowledged writes from %d clients, kill -9 after 1.5 s, %d lost", durability, total, clients, lost)
			if total < clients*10 {
				t.Fatalf("only %d writes before the kill: the load did not run", total)
			}
		})
	}
}

// survivors checks client i's keys after the restart and returns how many
// of its writes (a prefix 0..k-1) are there; members must form exactly
// that prefix and sizes must equal member counts.
func survivors(t *testing.T, c *redis.Client, ctx context.Context, i int) int {
	t.Helper()
	counter, _ := c.Get(ctx, fmt.Sprint("c:", i)).Int()
	list := c.LRange(ctx, fmt.Sprint("l:", i), 0, -1).Val()
	set := c.SMembers(ctx, fmt.Sprint("s:", i)).Val()
	hash := c.HGetAll(ctx, fmt.Sprint("h:", i)).Val()
	if n := c.LLen(ctx, fmt.Sprint("l:", i)).Val(); n != int64(len(list)) {
		t.Errorf("client %d: LLEN %d but %d elements", i, n, len(list))
	}
	if n := c.SCard(ctx, fmt.Sprint("s:", i)).Val(); n != int64(len(set)) {
		t.Errorf("client %d: SCARD %d but %d members", i, n, len(set))
	}
	if n := c.HLen(ctx, fmt.Sprint("h:", i)).Val(); n != int64(len(hash)) {
		t.Errorf("client %d: HLEN %d but %d fields", i, n, len(hash))
	}
	for k, v := range list {
		if v != strconv.Itoa(4*k+1) {
			t.Errorf("client %d: list element %d is %s, want %d", i, k, v, 4*k+1)
			break
		}
	}
	members := map[string]bool{}
	for _, m := range set {
		members[m] = true
	}
	for k := range set {
		if !members[fmt.Sprint("m:", 4*k+2)] {
			t.Errorf("client %d: set is not a prefix of the writes: m:%d missing of %d", i, 4*k+2, len(set))
			break
		}
	}
	for k := 0; k < len(hash); k++ {
		if hash[fmt.Sprint("f:", 4*k+3)] != strconv.Itoa(4*k+3) {
			t.Errorf("client %d: hash is not a prefix of the writes: f:%d missing of %d", i, 4*k+3, len(hash))
			break
		}
	}
	// Writes are sequential, so the survivors are a prefix: 4 per round.
	n := 0
	for n < 1_000_000 {
		var ok bool
		switch n % 4 {
		case 0:
			ok = counter > n/4
		case 1:
			ok = len(list) > n/4
		case 2:
			ok = len(set) > n/4
		case 3:
			ok = len(hash) > n/4
		}
		if !ok {
			break
		}
		n++
	}
	// Anything beyond the prefix would be a write surviving a lost earlier one.
	if counter > n/4+1 || len(list) > n/4+1 || len(set) > n/4+1 || len(hash) > n/4+1 {
		t.Errorf("client %d: survivors are not a prefix (counter %d, list %d, set %d, hash %d)", i, counter, len(list), len(set), len(hash))
	}
	return n
}
