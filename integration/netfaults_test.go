package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/drivers/tikv"
)

// TestNetworkFaults breaks the network cluster of ../shared/tikv under
// three rekv nodes serving GET, SET and INCR from nine clients: the store
// restarted, restarted three times 3 s apart (a rolling restart), paused
// (SIGSTOP, then SIGCONT), and PD restarted. Through each fault every
// command either succeeds or gets a clear error (TRYAGAIN or MISCONF,
// never "ERR internal error", never a dropped connection), and none fails
// but during the outage or within recoveryBound after it; every node
// writes again within recoveryBound of the store serving again, by
// itself, without a restart; the
// history of every client's commands, with the writes that failed counted
// as possibly applied, is linearizable (porcupine), so nothing
// acknowledged is lost; and a node that saw the store fail says so once
// in its log and INFO, and once that it recovered.
//
// It needs REKVTEST_TIKV_PD (the cluster's PD) and REKVTEST_TIKV_CLUSTER
// (the path of tikv-cluster.sh, with the PD_PORT and KV_PORT it was
// started with): .ci/run sets them, alone, since the faults would break
// any other test on the cluster meanwhile.
func TestNetworkFaults(t *testing.T) {
	script, pd := os.Getenv("REKVTEST_TIKV_CLUSTER"), os.Getenv("REKVTEST_TIKV_PD")
	if script == "" || pd == "" {
		t.Skip("REKVTEST_TIKV_CLUSTER and REKVTEST_TIKV_PD not set: no network cluster to break")
	}
	cl := clusterCtl{script: script, pd: pd}
	// restart restarts the store: down from the call until it returns,
	// when PD has the store Up again.
	restart := func(t *testing.T) outage {
		o := outage{from: time.Now()}
		cl.run(t, "restart-store")
		o.to = time.Now()
		return o
	}
	faults := []struct {
		name   string
		inject func(t *testing.T) []outage
	}{
		{"StoreRestart", func(t *testing.T) []outage { return []outage{restart(t)} }},
		{"StoreRollingRestart", func(t *testing.T) []outage {
			// A rolling restart of the stores (one here), as upgrades do.
			var list []outage
			for i := range 3 {
				if i > 0 {
					time.Sleep(3 * time.Second)
				}
				list = append(list, restart(t))
			}
			return list
		}},
		{"StorePaused", func(t *testing.T) []outage {
			p := cl.pid(t, "kv")
			o := outage{from: time.Now()}
			must(t, syscall.Kill(p, syscall.SIGSTOP))
			time.Sleep(4 * time.Second)
			must(t, syscall.Kill(p, syscall.SIGCONT))
			o.to = time.Now()
			return []outage{o}
		}},
		{"PDRestart", func(t *testing.T) []outage {
			o := outage{from: time.Now()}
			cl.restartPD(t, 3*time.Second)
			o.to = time.Now()
			return []outage{o}
		}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) { throughFault(t, strings.Split(pd, ","), f.inject) })
	}
}

// recoveryBound is how soon every node writes again after the store (or
// PD) serves again, and how long after that a command may still fail:
// issue 60's 3 s. After a 4 s pause of the store, 4 of 9 runs once
// measured 3.02 to 3.16 s: the node replaced its stuck client the moment
// the store came back and cut off the commits landing then, whose locks
// held every write of their keys until the locks' 3 s TTL ran out. A
// replaced client now lets its commits end first (tikv's retire).
const recoveryBound = 3 * time.Second

// outage is when a fault kept the store (or PD) from serving.
type outage struct{ from, to time.Time }

// clusterCtl drives the network cluster of tikv-cluster.sh.
type clusterCtl struct{ script, pd string }

func (c clusterCtl) run(t *testing.T, arg string) {
	t.Helper()
	out, err := exec.Command("bash", c.script, arg).CombinedOutput()
	if err != nil {
		t.Fatalf("tikv-cluster.sh %s: %v\n%s", arg, err, out)
	}
}

// runDir is where the script keeps its pids and data.
func (clusterCtl) runDir() string {
	if d := os.Getenv("TIKV_CLUSTER_DIR"); d != "" {
		return filepath.Join(d, "run")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "tikv-cluster", "run")
}

func (c clusterCtl) pid(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.runDir(), name+".pid"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// restartPD stops PD, waits down, and starts it again with the same
// command line and data (the script has no command for it), recording its
// new pid where the script's stop finds it.
func (c clusterCtl) restartPD(t *testing.T, down time.Duration) {
	t.Helper()
	p := c.pid(t, "pd")
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	must(t, syscall.Kill(p, syscall.SIGTERM))
	for i := 0; syscall.Kill(p, 0) == nil; i++ {
		if i == 100 {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(down)
	out, err := os.OpenFile(filepath.Join(c.runDir(), "pd.out"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	must(t, cmd.Start())
	must(t, os.WriteFile(filepath.Join(c.runDir(), "pd.pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644))
	go func() { _ = cmd.Wait() }() // reaped if it ends while the test runs
	health := "http://" + c.pd + "/pd/api/v1/health"
	for i := 0; ; i++ {
		r, err := http.Get(health)
		if err == nil {
			var b bytes.Buffer
			_, _ = b.ReadFrom(r.Body)
			r.Body.Close()
			if strings.Contains(b.String(), `"health": true`) {
				return
			}
		}
		if i == 600 {
			t.Fatalf("PD did not become healthy again within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lockedBuffer is a log destination several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// clearError reports an error reply a client can act on: TRYAGAIN (the
// command may be retried) or MISCONF (writes are refused while the store
// is failing).
func clearError(err error) bool {
	return err != nil && (strings.HasPrefix(err.Error(), "TRYAGAIN") || strings.HasPrefix(err.Error(), "MISCONF"))
}

// throughFault runs the load on three nodes, injects the fault two
// seconds in, and checks the properties TestNetworkFaults states.
func throughFault(t *testing.T, pd []string, inject func(t *testing.T) []outage) {
	logs := make([]*lockedBuffer, 3)
	addrs := startNodesLog(t, len(logs), pd, tikv.Open, func(i int) *slog.Logger {
		logs[i] = &lockedBuffer{}
		return slog.New(slog.NewTextHandler(logs[i], nil))
	})
	keys := []string{"x", "y", "z"}
	ctx := context.Background()
	const perNode = 3
	start := time.Now()
	var mu sync.Mutex
	var history []porcupine.Operation
	var failed, unclear, maybe int
	var slowest time.Duration
	var lastFailure time.Time
	lastOK := make([]time.Time, len(addrs))  // per node: its last command that succeeded
	wrote := make([][]time.Time, len(addrs)) // per node: when each write that succeeded returned
	type failure struct {
		node int
		at   time.Time
		err  error
	}
	var failures []failure
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for n, addr := range addrs {
		for c := 0; c < perNode; c++ {
			id := n*perNode + c
			rc := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, MaxRetries: -1,
				ReadTimeout: 90 * time.Second, WriteTimeout: 10 * time.Second})
			t.Cleanup(func() { rc.Close() })
			wg.Add(1)
			go func(n int, rng *rand.Rand) {
				defer wg.Done()
				for i := 0; i < 100000; i++ {
					select {
					case <-stop:
						return
					default:
					}
					call := time.Since(start)
					in, out, err := kvStep(ctx, rc, rng, keys)
					ret := time.Since(start)
					op := porcupine.Operation{ClientId: id, Input: in, Call: call.Nanoseconds(), Output: out, Return: ret.Nanoseconds()}
					mu.Lock()
					slowest = max(slowest, ret-call)
					if err != nil {
						failed++
						lastFailure = time.Now()
						failures = append(failures, failure{n, lastFailure, err})
						if !clearError(err) {
							unclear++
							if unclear <= 5 {
								t.Errorf("client %d: %s %s: %v (not a clear error)", id, in.op, in.key, err)
							}
						}
						// A write whose outcome is unknown may have been
						// applied; one refused (MISCONF) or said not
						// applied was not, and leaves no trace: the
						// history checks that too.
						op.Output, op.Return = kvOutput{unknown: true}, math.MaxInt64
					}
					if err == nil {
						lastOK[n] = time.Now()
						if in.op != "get" {
							wrote[n] = append(wrote[n], lastOK[n])
						}
					}
					if err == nil || in.op != "get" && !notApplied(err) {
						history = append(history, op)
						if err != nil {
							maybe++
						}
					}
					mu.Unlock()
					if err != nil {
						time.Sleep(50 * time.Millisecond)
					}
				}
			}(n, rand.New(rand.NewPCG(uint64(id), uint64(start.UnixNano()))))
		}
	}
	time.Sleep(2 * time.Second)
	outages := inject(t)
	healed := time.Now()
	t.Logf("fault injected and healed at %v", healed.Sub(start).Round(time.Millisecond))
	// Recovery: once the fault is healed, every node serves again by
	// itself; keep the load on until each has for 3 s: no command failed
	// for 3 s, each node answered one within the last second (commands
	// that hang do not fail either), and each says its store is healthy.
	admin := make([]*raw, len(addrs))
	for i, addr := range addrs {
		admin[i] = dialRaw(t, addr)
	}
	recovered := false
	for time.Since(healed) < 90*time.Second {
		mu.Lock()
		quiet := time.Since(lastFailure) > 3*time.Second
		for _, at := range lastOK {
			quiet = quiet && time.Since(at) < time.Second
		}
		mu.Unlock()
		for _, a := range admin {
			_ = a.conn.SetDeadline(time.Now().Add(10 * time.Second))
			quiet = quiet && strings.Contains(a.do("INFO", "persistence"), "storage_status:ok\r\n")
		}
		if quiet && time.Since(healed) > 3*time.Second {
			recovered = true
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if !recovered {
		t.Fatalf("commands still failed 90 s after the fault was healed (%d failed in all)", failed)
	}
	// Each node wrote again within recoveryBound of each outage's end,
	// and no command failed but during an outage or within that bound
	// after it.
	for i, o := range outages {
		for n := range addrs {
			var again time.Duration = -1
			for _, at := range wrote[n] {
				if at.After(o.to) {
					again = at.Sub(o.to)
					break
				}
			}
			t.Logf("outage %d (%v): node %d wrote again %v after it", i, o.to.Sub(o.from).Round(time.Millisecond), n, again.Round(time.Millisecond))
			if again < 0 || again > recoveryBound {
				t.Errorf("outage %d: node %d wrote again %v after the store served again; want within %v", i, n, again.Round(time.Millisecond), recoveryBound)
			}
		}
	}
	outside := 0
	for _, f := range failures {
		in := false
		for _, o := range outages {
			in = in || !f.at.Before(o.from) && !f.at.After(o.to.Add(recoveryBound))
		}
		if !in {
			if outside++; outside <= 5 {
				t.Errorf("node %d: a command failed %v after the start, outside the outages: %v", f.node, f.at.Sub(start).Round(time.Millisecond), f.err)
			}
		}
	}
	// Every node reads every key at the end: part of the history.
	for i, addr := range addrs {
		rc := newClient(t, addr, 2)
		for _, k := range keys {
			call := time.Since(start).Nanoseconds()
			v, err := rc.Get(ctx, k).Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				t.Fatalf("node %d: GET %s after recovery: %v", i, k, err)
			}
			history = append(history, porcupine.Operation{ClientId: 100 + i, Input: kvInput{op: "get", key: k}, Call: call,
				Output: kvOutput{val: v, exists: err == nil}, Return: time.Since(start).Nanoseconds()})
		}
	}
	t.Logf("%d operations in the history, %d commands failed with a clear error (%d writes maybe applied), %d unclear; slowest %v",
		len(history), failed-unclear, maybe, unclear, slowest.Round(time.Millisecond))
	sort.Slice(history, func(i, j int) bool { return history[i].Call < history[j].Call })
	res, info := porcupine.CheckOperationsVerbose(kvModel(), history, 60*time.Second)
	if res != porcupine.Ok {
		if f := os.Getenv("REKVTEST_PORCUPINE_HTML"); f != "" {
			out, _ := os.Create(f)
			_ = porcupine.Visualize(kvModel(), info, out)
			out.Close()
		}
		t.Fatalf("history of %d operations is %s, not linearizable", len(history), res)
	}
	for i, addr := range addrs {
		info := dialRaw(t, addr).do("INFO", "persistence")
		log := logs[i].String()
		fails, recovers := strings.Count(log, "storage failed"), strings.Count(log, "storage recovered")
		t.Logf("node %d: log says failed %d, recovered %d times; INFO: %s", i, fails, recovers, infoField(info, "storage_failures"))
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, "level=ERROR") && !strings.Contains(line, "storage failed") && !strings.Contains(line, "component=tikv") { // client-go logs its own
				t.Errorf("node %d logged an error: %.600s", i, line)
			}
		}
		if !strings.Contains(info, "storage_status:ok\r\n") {
			t.Errorf("node %d: INFO after recovery:\n%s", i, info)
		}
		if fails > 1 || recovers != fails {
			t.Errorf("node %d: the log says the store failed %d times and recovered %d times, for one fault:\n%s", i, fails, recovers, log)
		}
		if got := infoField(info, "storage_failures"); got != strconv.Itoa(fails) {
			t.Errorf("node %d: INFO storage_failures:%s, the log says %d", i, got, fails)
		}
	}
}

// infoField returns the value of field in an INFO reply.
func infoField(info, field string) string {
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return v
		}
	}
	return ""
}
