package integration

import (
	"bufio"
	"context"
	"fmt"
	stdnet "net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/conf"
)

// TestBigSetHoldsNoOtherShard: while one client SETs 192 MiB on Badger
// (96 MiB under the race detector), another writes keys of the other
// shards. Their writes must go on: the longest of them stays under half
// the big SET's time (it was 95%; now 5-25%, the event loop reading the
// value and Go's GC). Before the big value was written ahead of its
// transaction (store's prewrite.go), it went through Badger's
// big-transaction journal, whose commit let no other transaction begin
// or commit, or in one Badger write of 192 MiB: other shards' SETs
// waited 7.7 s of the SET's 8.1 s (with 512 MiB, 17 s of 18 s).
func TestBigSetHoldsNoOtherShard(t *testing.T) {
	size := 192 << 20
	if raceEnabled {
		size = 96 << 20 // beside the TiKV mock's tests, under the race detector
	}
	n := startNode(t, "badger", func(c *conf.Config) { c.Storage.Badger.Durability = "everysec" })
	shards := 4
	shardOf := func(k string) uint64 { return xxhash.Sum64(actors.HashTag([]byte(k))) % uint64(shards) }
	var others []string
	for i := 0; len(others) < 6; i++ {
		if k := fmt.Sprint("other", i); shardOf(k) != shardOf("big") {
			others = append(others, k)
		}
	}
	ctx := context.Background()
	big := newClient(t, n.Addr(), 2)
	big.Options().ReadTimeout = 2 * time.Minute
	other := newClient(t, n.Addr(), 2)
	if err := other.Set(ctx, "warm", "up", 0).Err(); err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("0123456789abcdef", size/16)

	done := make(chan struct{})
	var mu sync.Mutex
	var longest time.Duration
	writes := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			t0 := time.Now()
			if err := other.Set(ctx, others[i%len(others)], i, 0).Err(); err != nil {
				t.Errorf("SET of another shard's key during the big SET: %v", err)
				return
			}
			mu.Lock()
			longest, writes = max(longest, time.Since(t0)), writes+1
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
		}
	}()
	t0 := time.Now()
	err := big.Set(ctx, "big", value, 0).Err()
	took := time.Since(t0)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatalf("SET of %d MiB: %v", size>>20, err)
	}
	t.Logf("SET of %d MiB took %v; meanwhile %d writes to other shards, the longest %v", size>>20, took.Round(time.Millisecond), writes, longest.Round(time.Millisecond))
	if longest > took/2 {
		t.Fatalf("a write to another shard waited %v of the big SET's %v", longest, took)
	}
	if got := big.StrLen(ctx, "big").Val(); got != int64(size) {
		t.Fatalf("STRLEN = %d", got)
	}
	if got := big.GetRange(ctx, "big", int64(size)-16, int64(size)-1).Val(); got != "0123456789abcdef" {
		t.Fatalf("the last 16 bytes = %q", got)
	}
	if got := big.Get(ctx, "big").Val(); got != value {
		t.Fatalf("GET: %d bytes, not the value", len(got))
	}
}

// TestBigValueInSmallContainer stores a 512 MiB value (Redis's
// proto-max-bulk-len, the largest a client may send by default) on a
// server with the memory budget a 1 GiB container gives (a quarter:
// 256 MiB), in a memory cgroup of 1.25 GiB, page cache included, while
// another client PINGs: the SET is answered (the connection is not
// dropped, the kernel kills nothing), the value reads back, the server's
// anonymous memory grows by at most twice the value, and the PINGs are
// answered all along.
func TestBigValueInSmallContainer(t *testing.T) {
	if raceEnabled {
		t.Skip("memory figures under the race detector measure its shadow memory (CI runs this test without -race)")
	}
	const size = 512 << 20
	cmd, addr := startLoaded(t, t.TempDir(), "REKV_MEMORY__BUDGET_MIB=256")
	pid := cmd.Process.Pid
	cg := joinMemCgroup(t, pid, 1280<<20)
	_, _, idle := procRSS(pid)
	peaks := sampleMemory(pid, 10*time.Millisecond)

	done := make(chan struct{})
	var pings []time.Duration
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r := dialRaw(t, addr)
		for i := 0; i < 100_000; i++ {
			select {
			case <-done:
				return
			default:
			}
			t0 := time.Now()
			if got := r.do("PING"); got != "+PONG\r\n" {
				t.Errorf("PING during the big SET = %q", got)
				return
			}
			pings = append(pings, time.Since(t0))
			time.Sleep(5 * time.Millisecond)
		}
	}()
	conn, err := stdnet.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(3 * time.Minute))
	t0 := time.Now()
	fmt.Fprintf(conn, "*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$%d\r\n", size)
	piece := []byte(strings.Repeat("0123456789abcdef", 1<<16)) // 1 MiB
	for i := 0; i < size/len(piece); i++ {
		if _, err := conn.Write(piece); err != nil {
			t.Fatalf("sending the value, %d MiB in: %v", i, err)
		}
	}
	_, _ = conn.Write([]byte("\r\n"))
	reply, err := bufio.NewReader(conn).ReadString('\n')
	took := time.Since(t0)
	close(done)
	wg.Wait()
	peaks.stop()
	if err != nil || reply != "+OK\r\n" {
		t.Fatalf("SET of 512 MiB: %q, %v", reply, err)
	}
	slices.Sort(pings)
	p99 := time.Duration(0)
	if len(pings) > 0 {
		p99 = pings[len(pings)*99/100]
	}
	grew := peaks.anon.Load() - min(idle, peaks.anon.Load())
	cgPeak, kills := cg.stats()
	t.Logf("SET of 512 MiB in %v; other client's PING p99 %v over %d; anonymous memory grew by %d MiB (%.2fx the value), cgroup peak %d MiB",
		took.Round(time.Millisecond), p99, len(pings), grew>>20, float64(grew)/size, cgPeak>>20)
	if kills != 0 {
		t.Fatalf("the OOM killer killed %d processes in the server's cgroup", kills)
	}
	if p99 > 250*time.Millisecond {
		// A guard against the world stopping again (PINGs waited 7.6 s
		// and more), not the target: bench/bigvalues.sh measures that
		// (p99 under 50 ms, Redis beside it).
		t.Fatalf("other client's PING p99 %v during the big SET", p99)
	}
	if grew > 2*size {
		t.Fatalf("anonymous memory grew by %d MiB storing 512 MiB", grew>>20)
	}
	r := dialRaw(t, addr)
	if got := r.do("STRLEN", "big"); got != fmt.Sprintf(":%d\r\n", size) {
		t.Fatalf("STRLEN = %q", got)
	}
	if got := r.do("GETRANGE", "big", strconv.Itoa(size-16), strconv.Itoa(size-1)); got != "$16\r\n0123456789abcdef\r\n" {
		t.Fatalf("the last 16 bytes = %q", got)
	}
}
