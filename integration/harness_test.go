package integration

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	stdnet "net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tikv/client-go/v2/txnkv"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// drivers lists the storage drivers every integration test runs on.
// TiKV runs on client-go's in-process mock cluster (a fresh one per node).
//
// REKVTEST_DRIVERS overrides the list (comma separated): "tikv-net" is the
// network TiKV cluster whose PD REKVTEST_TIKV_PD names (.ci/run starts one
// from ../shared/tikv and runs the suite a third time on it), each server
// in a namespace of its own.
func drivers() []string {
	if d := os.Getenv("REKVTEST_DRIVERS"); d != "" {
		return strings.Split(d, ",")
	}
	return []string{"badger", "tikv"}
}

// namespaces numbers the namespaces of servers on the network cluster.
var namespaces atomic.Int64

// netNamespace returns a namespace no other server of this run uses on
// the network cluster at pd, and removes its keys when t ends, after the
// servers started later in t have closed (cleanups run last-in first-out).
//
// Removing them keeps the store's regions small: the TiKV-protocol store
// of ../shared/tikv splits a region past 96 MiB at a sampled key, and when
// the region's last third of bytes sits in a few big keys after many small
// ones (a test's chunked big strings after earlier tests' data) it finds
// no key, "splits" at the empty key, reports a region with no keys to PD
// and bumps the region's version every 5 s; clients then cannot locate
// the region's keys (CI: "loadRegion from PD failed" for minutes).
func netNamespace(t *testing.T, pd []string) string {
	ns := fmt.Sprintf("it/%d/%d/", runID, namespaces.Add(1))
	t.Cleanup(func() {
		// Right after a fault test the cluster may still be settling
		// (a PD restart): try for a while. Leftover keys are only the
		// store's hygiene, not a failure of rekv's: a note, not an error.
		var err error
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
			if err = dropNamespace(pd, ns); err == nil {
				return
			}
		}
		t.Logf("could not remove the keys of namespace %s: %v (%T)", ns, err, err)
	})
	return ns
}

// dropNamespace deletes every key under ns on the cluster at pd (TiKV's
// DeleteRange: the store removes the keys physically).
func dropNamespace(pd []string, ns string) error {
	c, err := txnkv.NewClient(pd)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	end := []byte(ns)
	end[len(end)-1]++ // ns ends in '/': no key under it reaches end
	_, err = c.KVStore.DeleteRange(ctx, []byte(ns), end, 1)
	return err
}

// runID tells this test process's namespaces from earlier runs' on the
// same cluster.
var runID = time.Now().UnixNano()

// forEachDriver runs fn as a subtest per driver, each with a fresh server.
func forEachDriver(t *testing.T, fn func(t *testing.T, addr string)) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n := startNode(t, d, nil)
			fn(t, n.Addr())
		})
	}
}

// forEachDriverParallel is forEachDriver with the drivers' subtests run
// at the same time: for long tests with no timing bound and nothing
// shared between the drivers' runs (the in-process TiKV mock under the
// race detector is 3-4x slower than Badger, and the suite used about one
// of the machine's two cores).
func forEachDriverParallel(t *testing.T, fn func(t *testing.T, addr string)) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			n := startNode(t, d, nil)
			fn(t, n.Addr())
		})
	}
}

// forEachDriverClientParallel is forEachDriverClient with the drivers'
// subtests run at the same time (see forEachDriverParallel).
func forEachDriverClientParallel(t *testing.T, proto int, fn func(t *testing.T, ctx context.Context, c *redis.Client, addr string)) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		ctx, c := emptiedClient(t, addr, proto)
		fn(t, ctx, c, addr)
	})
}

// forEachProtocol runs fn for each driver and each protocol (RESP2, RESP3)
// with a go-redis client on an emptied server (addr, for other clients).
func forEachProtocol(t *testing.T, fn func(t *testing.T, ctx context.Context, c *redis.Client, addr string, proto int)) {
	forEachDriver(t, func(t *testing.T, addr string) {
		for _, proto := range []int{2, 3} {
			t.Run(fmt.Sprintf("resp%d", proto), func(t *testing.T) {
				ctx, c := emptiedClient(t, addr, proto)
				fn(t, ctx, c, addr, proto)
			})
		}
	})
}

// forEachDriverClient runs fn for each driver with a go-redis client of
// protocol proto on an emptied server (addr, for other clients).
func forEachDriverClient(t *testing.T, proto int, fn func(t *testing.T, ctx context.Context, c *redis.Client, addr string)) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx, c := emptiedClient(t, addr, proto)
		fn(t, ctx, c, addr)
	})
}

// emptiedClient returns a go-redis client of protocol proto on the server
// at addr, after FLUSHALL.
func emptiedClient(t *testing.T, addr string, proto int) (context.Context, *redis.Client) {
	ctx := context.Background()
	c := newClient(t, addr, proto)
	must(t, c.FlushAll(ctx).Err())
	return ctx, c
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*stdnet.TCPAddr).Port
}

// startNode starts a server for driver on a free port; edit may adjust the
// config. It is closed when the test ends.
func startNode(t *testing.T, driver string, edit func(*conf.Config)) *node.Node {
	t.Helper()
	n, _ := startNodeWith(t, driver, edit)
	return n
}

// startNodeWith is startNode with node options; it also returns the tail
// of the server's log.
func startNodeWith(t *testing.T, driver string, edit func(*conf.Config), opts ...node.Option) (*node.Node, *logTail) {
	t.Helper()
	if os.Getenv("REKVTEST_DRIVERS") != "" && !slices.Contains(drivers(), driver) {
		// CI's pass on the network cluster (REKVTEST_DRIVERS=tikv-net)
		// runs what runs on that driver; a test written for one driver
		// ran in the pass that selects it.
		t.Skipf("a %s node: this run selects the drivers %v (REKVTEST_DRIVERS)", driver, drivers())
	}
	cfg := conf.Default()
	cfg.Storage.Driver = driver
	cfg.Storage.Badger.Dir = t.TempDir()
	cfg.Storage.Badger.Durability = "no"
	cfg.Storage.Badger.MemTableMiB = 16
	cfg.Storage.TiKV.PD = []string{"mock://"}
	if driver == "tikv-net" {
		pd := os.Getenv("REKVTEST_TIKV_PD")
		if pd == "" {
			t.Fatal("driver tikv-net needs REKVTEST_TIKV_PD (the PD address of a network cluster)")
		}
		cfg.Storage.Driver = "tikv"
		cfg.Storage.TiKV.PD = strings.Split(pd, ",")
		cfg.Storage.TiKV.Namespace = netNamespace(t, cfg.Storage.TiKV.PD)
	}
	cfg.Actors.Shards = 4
	closeWithin := 10 * time.Second
	if driver == "tikv" && raceEnabled {
		// The in-process mock under the race detector, beside other test
		// packages on a 2-core machine, took over 15 s (the default) for
		// one 10,000-member commit in CI, and a close waits for the
		// transaction the collector has in flight: after TestBigString
		// deleted its 32 MiB, that one was still running 10 s into the
		// close.
		cfg.Storage.TiKV.RequestTimeout = time.Minute
		closeWithin = 30 * time.Second
	}
	if driver == "tikv-net" {
		// A close waits for the store calls in flight, each bounded by
		// the request timeout (15 s): on the network cluster, at the end
		// of CI's run, TestAsynqQueue's close passed 10 s twice in two
		// runs (0.5 s in 20 runs alone). The node logs its steps' times
		// when a close is slow.
		closeWithin = 30 * time.Second
	}
	if edit != nil {
		edit(&cfg)
	}
	tail := &logTail{}
	log := slog.New(slog.NewTextHandler(tail, nil))
	var n *node.Node
	var err error
	for try := 0; try < 5; try++ {
		cfg.Server.Port = freePort(t)
		if n, err = node.Start(cfg, "", log, opts...); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), closeWithin)
		defer cancel()
		if err := n.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		tail.report(t)
	})
	return n, tail
}

func newClient(t *testing.T, addr string, proto int) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: proto, MaxRetries: -1,
		ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

// raw is a plain TCP connection speaking RESP by hand.
type raw struct {
	t    *testing.T
	conn stdnet.Conn
	r    *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *raw {
	t.Helper()
	c, err := stdnet.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	return &raw{t: t, conn: c, r: bufio.NewReader(c)}
}

func (r *raw) write(s string) {
	r.t.Helper()
	if _, err := r.conn.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// encode renders a command as a RESP multibulk.
func encode(args ...string) string {
	s := fmt.Sprintf("*%d\r\n", len(args))
	for _, a := range args {
		s += fmt.Sprintf("$%d\r\n%s\r\n", len(a), a)
	}
	return s
}

func (r *raw) do(args ...string) string {
	r.t.Helper()
	r.write(encode(args...))
	return r.reply()
}

// reply reads one whole RESP2/RESP3 reply and returns its exact bytes.
func (r *raw) reply() string {
	r.t.Helper()
	s, err := readReply(r.r)
	if err != nil {
		r.t.Fatalf("read reply: %v", err)
	}
	return s
}

func readReply(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return line, err
	}
	if len(line) < 3 {
		return line, fmt.Errorf("short line %q", line)
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+', '-', ':', ',', '_', '#', '(':
		return line, nil
	case '$', '=', '!':
		n, _ := strconv.Atoi(body)
		if n < 0 {
			return line, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return line + string(buf), nil
	case '*', '~', '>', '%', '|':
		n, _ := strconv.Atoi(body)
		if line[0] == '%' || line[0] == '|' {
			n *= 2
		}
		out := line
		for i := 0; i < n; i++ {
			s, err := readReply(r)
			if err != nil {
				return "", err
			}
			out += s
		}
		return out, nil
	}
	return line, fmt.Errorf("unknown reply type %q", line)
}

// redisServer starts Debian's redis-server on a free port for differential
// tests. CI installs it (.ci/run); on a machine without it these tests
// cannot compare and say so.
func redisServer(t *testing.T, extra ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed: differential test needs it (.ci/run installs it)")
	}
	port := freePort(t)
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir()}, extra...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := stdnet.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("redis-server did not start")
	return ""
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(crashChildEnv); spec != "" {
		os.Exit(crashChild(spec)) // this process is a server for the crash test
	}
	if args := os.Getenv(loadedChildEnv); args != "" {
		os.Exit(loadedChild(args)) // a server configured as the program is
	}
	os.Exit(m.Run())
}

// onTiKV reports whether a forEachDriver subtest runs on TiKV (the mock or
// the network cluster), where bulk tests use smaller counts.
func onTiKV(t *testing.T) bool {
	return onMock(t) || strings.HasSuffix(t.Name(), "/tikv-net")
}

// onMock reports whether a forEachDriver subtest runs on TiKV's in-process
// mock, whose single lock and region-wide lock resolution make the biggest
// sizes take far longer than on a store.
func onMock(t *testing.T) bool { return strings.HasSuffix(t.Name(), "/tikv") }
