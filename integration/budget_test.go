package integration

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	stdnet "net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// loadedChildEnv makes the test binary run a server configured as the
// program is (conf.Load of the arguments in it and of the environment,
// the memory budget applied), instead of tests.
const loadedChildEnv = "REKVTEST_LOADED_CHILD"

func loadedChild(args string) int {
	cfg, path, err := conf.Load(strings.Fields(args), os.Environ(), os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	node.ApplyRuntime(cfg.Runtime, log) // as main.go does
	defer node.StartIdleRelease(cfg.Runtime, log)()
	if _, err := node.Start(cfg, path, log); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	select {} // until killed
}

// startLoaded runs a loaded child on dir with env added, and returns it
// once it answers.
func startLoaded(t *testing.T, dir string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	port := freePort(t)
	return startProcess(t, port, append([]string{loadedChildEnv + "=--port " + strconv.Itoa(port) + " --dir " + dir}, env...)...)
}

// TestMemoryBudget: a server given a memory budget of 256 MiB
// (memory.budget_mib; everything else default but maxmemory-clients) runs in a memory cgroup of
// 384 MiB, page cache included, as in a container, through what grows a
// server's memory:
//   - 300,000 values of 1 KB (300 MiB, more than the budget) loaded by
//     one client pipelining as fast as it can (as redis-cli --pipe);
//   - random reads over all of them from 8 clients (the caches fill);
//   - a pipeline of 1,000,000 SETs from one client, while another sends
//     PINGs;
//   - a client asking for 10 MiB replies it does not read;
//   - 8 clients each sending a 24 MiB value slowly (192 MiB in all, past
//     maxmemory-clients, set to an eighth of the budget (off by default,
//     as in Redis): the biggest are disconnected).
//
// The kernel must not have killed it, every command of the well-behaved
// clients is answered, and its anonymous memory (heap, stacks: what
// the kernel cannot take back) stays under 1.4 x the budget (the rest
// is garbage between collections and memory not yet returned to the OS),
// and within 5 s of the last burst it comes back within 1.5x of what a
// MEMORY PURGE leaves.
func TestMemoryBudget(t *testing.T) {
	if raceEnabled {
		t.Skip("memory figures under the race detector measure its shadow memory (CI runs this test without -race)")
	}
	const budgetMiB, cgroupMiB = 256, 384
	cmd, addr := startLoaded(t, t.TempDir(), "REKV_MEMORY__BUDGET_MIB="+strconv.Itoa(budgetMiB),
		"REKV_SERVER__REDIS__MAXMEMORY-CLIENTS="+strconv.Itoa(budgetMiB/8)+"mb")
	pid := cmd.Process.Pid
	cg := joinMemCgroup(t, pid, cgroupMiB<<20)
	peaks := sampleMemory(pid, 20*time.Millisecond)
	phase := func(what string) {
		_, _, anon := procRSS(pid)
		t.Logf("after %s: %d MiB anonymous, peak so far %d MiB", what, anon>>20, peaks.anon.Load()>>20)
	}

	// 1. Load.
	const keys = 300_000
	value := strings.Repeat("v", 1000)
	if err := pipeline(addr, keys, func(w *bufio.Writer, i int) {
		fmt.Fprintf(w, "*3\r\n$3\r\nSET\r\n$10\r\nk:%08d\r\n$%d\r\n%s\r\n", i, len(value), value)
	}, "+OK\r\n"); err != nil {
		t.Fatal(err)
	}
	phase("loading 300,000 x 1 KB")

	// 2. Random reads over everything.
	var wg sync.WaitGroup
	for c := 0; c < 8; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := dialRaw(t, addr)
			for i, end := 0, time.Now().Add(3*time.Second); i < 200_000 && time.Now().Before(end); i++ {
				k := fmt.Sprintf("k:%08d", (i*7919+c*104729)%keys)
				if got := r.do("GET", k); len(got) != len(value)+len("$1000\r\n\r\n") {
					t.Errorf("GET %s: %.40q", k, got)
					return
				}
			}
		}(c)
	}
	wg.Wait()
	phase("random reads")

	// 3. A million-command pipeline; PINGs meanwhile.
	admin := dialRaw(t, addr)
	done := make(chan error, 1)
	var waits []time.Duration
	go func() {
		done <- pipeline(addr, 1_000_000, func(w *bufio.Writer, i int) {
			fmt.Fprintf(w, "*3\r\n$3\r\nSET\r\n$10\r\np:%08d\r\n$3\r\nabc\r\n", i%50_000)
		}, "+OK\r\n")
	}()
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		case <-time.After(10 * time.Millisecond):
			t0 := time.Now()
			if got := admin.do("PING"); got != "+PONG\r\n" {
				t.Fatalf("PING: %q", got)
			}
			waits = append(waits, time.Since(t0))
		}
	}
	slices.Sort(waits)
	if len(waits) > 0 {
		t.Logf("a pipeline of 1,000,000 SETs: %d PINGs meanwhile, p99 %v, slowest %v", len(waits),
			waits[len(waits)*99/100].Round(time.Millisecond), waits[len(waits)-1].Round(time.Millisecond))
	}
	phase("the pipeline")

	// 4. Big replies nobody reads: the client is paused, not buffered.
	if got := admin.do("SET", "big", strings.Repeat("x", 10<<20)); got != "+OK\r\n" {
		t.Fatal(got)
	}
	nr, err := stdnet.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := nr.(*stdnet.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	for i := 0; i < 40; i++ {
		if _, err := nr.Write([]byte(encode("GET", "big"))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	phase("40 unread 10 MiB replies asked for")
	nr.Close()

	// 5. Big values arriving slowly from many clients at once.
	const senders, size = 8, 24 << 20
	chunk := strings.Repeat("y", 1<<20)
	var closed atomic.Int32
	for c := 0; c < senders; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			conn, err := stdnet.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
			if _, err := fmt.Fprintf(conn, "*3\r\n$3\r\nSET\r\n$6\r\nslow:%d\r\n$%d\r\n", c, size); err != nil {
				closed.Add(1)
				return
			}
			for sent := 0; sent < size; sent += len(chunk) {
				if _, err := conn.Write([]byte(chunk)); err != nil {
					closed.Add(1) // disconnected by maxmemory-clients
					return
				}
				time.Sleep(30 * time.Millisecond)
			}
			_, _ = conn.Write([]byte("\r\n"))
			if line, err := bufio.NewReader(conn).ReadString('\n'); err != nil {
				closed.Add(1)
			} else if line != "+OK\r\n" {
				t.Errorf("slow SET: %q", line)
			}
		}(c)
	}
	wg.Wait()
	evicted := infoField(admin.do("INFO", "stats"), "evicted_clients")
	t.Logf("%d of %d clients sending 24 MiB slowly were disconnected (evicted_clients:%s)", closed.Load(), senders, evicted)
	if evicted == "0" || closed.Load() == 0 {
		t.Errorf("no client was evicted while %d MiB arrived at once, over maxmemory-clients (%d MiB)",
			senders*size>>20, budgetMiB/8)
	}
	phase("8 slow 24 MiB values")

	// Within 5 s of the last burst the memory comes back within 1.5x of
	// what the data needs (what MEMORY PURGE leaves, measured after).
	lowest := uint64(1 << 62)
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		_, _, anon := procRSS(pid)
		lowest = min(lowest, anon)
	}
	if got := admin.do("MEMORY", "PURGE"); got != "+OK\r\n" {
		t.Fatal(got)
	}
	_, _, working := procRSS(pid)
	t.Logf("within 5 s after the bursts: down to %d MiB anonymous; %d MiB once purged", lowest>>20, working>>20)
	if lowest > working*3/2 {
		t.Errorf("5 s after the bursts: still %d MiB, over 1.5x the %d MiB a purge leaves", lowest>>20, working>>20)
	}
	peaks.stop()
	// A slow value is whole or absent: a client evicted after its command
	// ran lost only the reply.
	stored := 0
	for c := 0; c < senders; c++ {
		switch got := admin.do("STRLEN", fmt.Sprintf("slow:%d", c)); got {
		case fmt.Sprintf(":%d\r\n", size):
			stored++
		case ":0\r\n":
		default:
			t.Errorf("STRLEN slow:%d = %q", c, got)
		}
	}
	if stored < senders-int(closed.Load()) {
		t.Errorf("%d slow values stored, but %d clients were answered OK", stored, senders-int(closed.Load()))
	}
	if got := admin.do("DBSIZE"); got != fmt.Sprintf(":%d\r\n", keys+50_000+1+stored) {
		t.Errorf("DBSIZE after all: %q", got)
	}
	cgPeak, kills := cg.stats()
	t.Logf("budget %d MiB, cgroup %d MiB: anonymous memory peaked at %d MiB, the cgroup (page cache included) at %d MiB",
		budgetMiB, cgroupMiB, peaks.anon.Load()>>20, cgPeak>>20)
	if kills > 0 {
		t.Fatalf("the OOM killer killed %d processes in the server's cgroup", kills)
	}
	if limit := uint64(budgetMiB) << 20 * 7 / 5; peaks.anon.Load() > limit {
		t.Errorf("anonymous memory peaked at %d MiB, over 1.4 x the %d MiB budget", peaks.anon.Load()>>20, budgetMiB)
	}
}

// pipeline sends n commands (write renders the i-th) on one connection
// as fast as it takes them, while reading the replies, each want. It
// returns an error rather than failing the test: callers run it beside
// other clients, off the test's goroutine.
func pipeline(addr string, n int, write func(w *bufio.Writer, i int), want string) error {
	c, err := stdnet.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Minute))
	errc := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(c, 64<<10)
		for i := 0; i < n; i++ {
			write(w, i)
		}
		errc <- w.Flush()
	}()
	r := bufio.NewReaderSize(c, 64<<10)
	for i := 0; i < n; i++ {
		line, err := r.ReadString('\n')
		if err != nil || line != want {
			return fmt.Errorf("reply %d of %d: %q %v", i, n, line, err)
		}
	}
	return <-errc
}
