package integration

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// envInt reads a test switch, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// statValue returns the number after key on the line of text that starts
// with it ("VmRSS: 123 kB", "oom_kill 0"), 0 if there is none.
func statValue(text, key string) uint64 {
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			n, _ := strconv.ParseUint(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// procRSS returns a process's resident memory, its peak, and the
// anonymous part (heap and stacks, not file pages mapped in), in bytes.
func procRSS(pid int) (rss, peak, anon uint64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0
	}
	status := string(b)
	return statValue(status, "VmRSS:") << 10, statValue(status, "VmHWM:") << 10, statValue(status, "RssAnon:") << 10
}

// memoryPeaks are the largest RSS and anonymous memory a sampler saw.
type memoryPeaks struct {
	rss, anon atomic.Uint64
	stop      func() // ends the sampling and waits for it
}

// sampleMemory samples pid's memory every interval until stop.
func sampleMemory(pid int, every time.Duration) *memoryPeaks {
	p := &memoryPeaks{}
	done, sampled := make(chan struct{}), make(chan struct{})
	p.stop = func() { close(done); <-sampled }
	go func() {
		defer close(sampled)
		for {
			select {
			case <-done:
				return
			case <-time.After(every):
				rss, _, anon := procRSS(pid)
				p.rss.Store(max(p.rss.Load(), rss))
				p.anon.Store(max(p.anon.Load(), anon))
			}
		}
	}()
	return p
}

// TestMemorySoak runs many clients writing and reading values of random
// sizes (100 B to 8 MiB) against a server in its own process, configured
// with a Go memory limit (runtime.memory_limit_mib), and checks that its
// peak resident memory stays under a ceiling. By default a short run (100
// clients, 3 s, Go limit 1 GiB, ceiling 2 GiB); the soak is
// REKVTEST_SOAK_CLIENTS=1000 REKVTEST_SOAK_SECONDS=600, with
// REKVTEST_SOAK_GO_LIMIT_MIB and REKVTEST_SOAK_CEILING_MIB (on anonymous
// memory: see the check), and REKVTEST_SOAK_MEMCG_MIB to run the server
// in a memory cgroup of that size, as in a container: then the kernel
// takes back the pages of Badger's mapped files at the limit, and the test
// fails if it had to kill the server instead.
func TestMemorySoak(t *testing.T) {
	clients := envInt("REKVTEST_SOAK_CLIENTS", 100)
	secs := envInt("REKVTEST_SOAK_SECONDS", 3)
	ceiling := uint64(envInt("REKVTEST_SOAK_CEILING_MIB", 2048)) << 20
	t.Setenv(childMemoryLimitEnv, strconv.Itoa(envInt("REKVTEST_SOAK_GO_LIMIT_MIB", 1024)))
	cmd, addr := startChild(t, t.TempDir(), "no")
	pid := cmd.Process.Pid
	var cg *memCgroup
	if mib := envInt("REKVTEST_SOAK_MEMCG_MIB", 0); mib > 0 {
		cg = joinMemCgroup(t, pid, uint64(mib)<<20)
	}
	buf := make([]byte, 8<<20)
	for i := range buf {
		buf[i] = byte('a' + i%26)
	}
	sizes := []int{100, 100, 100, 10 << 10, 10 << 10, 100 << 10, 1 << 20}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var ops, bytes atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			c := dialRaw(t, addr)
			w := bufio.NewWriterSize(c.conn, 64<<10)
			for time.Now().Before(deadline) {
				_ = c.conn.SetDeadline(time.Now().Add(60 * time.Second)) // per round trip: the soak runs longer
				size := sizes[r.IntN(len(sizes))]
				if r.IntN(200) == 0 {
					size = 8 << 20
				}
				key := "soak:" + strconv.Itoa(r.IntN(2000))
				fmt.Fprintf(w, "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n", len(key), key, size)
				_, _ = w.Write(buf[:size])
				_, _ = w.WriteString("\r\n")
				fmt.Fprintf(w, "*2\r\n$3\r\nGET\r\n$%d\r\n%s\r\n", len(key), key)
				if err := w.Flush(); err != nil {
					errs <- err
					return
				}
				for j := 0; j < 2; j++ {
					s, err := readReply(c.r)
					if err != nil {
						errs <- fmt.Errorf("client %d: %v", i, err)
						return
					}
					bytes.Add(int64(len(s)))
				}
				ops.Add(2)
			}
		}(i)
	}
	peaks := sampleMemory(pid, 100*time.Millisecond)
	wg.Wait()
	peaks.stop()
	peakSeen, anonPeak := peaks.rss.Load(), peaks.anon.Load()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	_, peak, _ := procRSS(pid)
	t.Logf("%d clients, %d s: %d commands, %d MiB of replies; server peak RSS %d MiB (sampled %d MiB), of it anonymous "+
		"(heap, stacks) at most %d MiB; Go memory limit %s MiB, ceiling %d MiB", clients, secs, ops.Load(), bytes.Load()>>20, peak>>20,
		peakSeen>>20, anonPeak>>20, os.Getenv(childMemoryLimitEnv), ceiling>>20)
	if cg != nil {
		cgPeak, kills := cg.stats()
		t.Logf("memory cgroup limit %d MiB: peak %d MiB (page cache included), %d OOM kills",
			envInt("REKVTEST_SOAK_MEMCG_MIB", 0), cgPeak>>20, kills)
		if kills > 0 {
			t.Fatalf("the OOM killer killed %d processes in the server's cgroup", kills)
		}
		if got := dialRaw(t, addr).do("PING"); got != "+PONG\r\n" {
			t.Fatalf("PING after the soak: %q", got)
		}
	}
	if ops.Load() < int64(clients) {
		t.Fatalf("only %d commands ran", ops.Load())
	}
	// The ceiling bounds the anonymous memory: Badger's files are
	// memory-mapped, and the pages of them a read touched count in RSS
	// too, as page cache the kernel takes back under pressure.
	if anonPeak > ceiling {
		t.Fatalf("server anonymous memory peaked at %d MiB, over the %d MiB ceiling", anonPeak>>20, ceiling>>20)
	}
}
