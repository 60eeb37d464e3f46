package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	stdnet "net"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/conf"
	rdrivers "github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/tikv"
	"github.com/rekv/rekv/node"
)

// clusterModeNodes starts n nodes in cluster mode on one shared store:
// the in-process mock, or the network cluster when REKVTEST_TIKV_PD
// names one and net is set. Their node timeout is short (1 s, renewed
// every 200 ms), so the tests see handovers quickly.
func clusterModeNodes(t *testing.T, n int, net bool) []*node.Node {
	t.Helper()
	edit := func(c *conf.Config) {
		c.Cluster.Enabled = true
		c.Cluster.NodeTimeout = time.Second
	}
	logs := func(int) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
	if pd := os.Getenv("REKVTEST_TIKV_PD"); net && pd != "" {
		return startNodesWith(t, n, strings.Split(pd, ","), tikv.Open, logs, edit)
	}
	return startNodesWith(t, n, []string{tikv.MockPD}, sharedMock(t).Open, logs, edit)
}

// awaitLinks waits (5 s at most) until CLUSTER LINKS on c, node self,
// lists one link to and one from each other node of ids (address -> id)
// and nothing else, each with Redis's six fields.
func awaitLinks(t *testing.T, c *redis.Client, self string, ids map[string]string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		if id != self {
			want["to "+id], want["from "+id] = true, true
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		links, err := c.Do(context.Background(), "cluster", "links").Slice()
		if err != nil {
			t.Fatalf("CLUSTER LINKS: %v", err)
		}
		got := map[string]bool{}
		for _, l := range links {
			f, ok := l.([]any)
			if !ok || len(f) != 12 || f[0] != "direction" || f[2] != "node" || f[4] != "create-time" ||
				f[6] != "events" || f[8] != "send-buffer-allocated" || f[10] != "send-buffer-used" {
				t.Fatalf("CLUSTER LINKS entry: %#v", l)
			}
			if ms, ok := f[5].(int64); !ok || time.Since(time.UnixMilli(ms)) > time.Minute || time.Since(time.UnixMilli(ms)) < 0 {
				t.Fatalf("CLUSTER LINKS create-time: %#v", f[5])
			}
			got[fmt.Sprint(f[1], " ", f[3])] = true
		}
		if maps.Equal(got, want) && len(links) == len(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CLUSTER LINKS on %s: %v, want %v", self, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// clusterInfo returns a node's CLUSTER INFO fields.
func clusterInfo(t *testing.T, c *redis.Client) map[string]string {
	t.Helper()
	s, err := c.ClusterInfo(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(s, "\r\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = v
		}
	}
	return out
}

// awaitAgreement waits until every node's CLUSTER SLOTS is the same,
// covers every slot and lists want nodes, and returns it.
func awaitAgreement(t *testing.T, clients []*redis.Client, want int) []redis.ClusterSlot {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var first []redis.ClusterSlot
		agree := true
		for i, c := range clients {
			slots, err := c.ClusterSlots(ctx).Result()
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = slots
			} else if fmt.Sprint(slots) != fmt.Sprint(first) {
				agree = false
			}
		}
		owners, covered := map[string]bool{}, 0
		for _, s := range first {
			owners[s.Nodes[0].Addr] = true
			covered += s.End - s.Start + 1
		}
		if agree && covered == cluster.Slots && len(owners) == want && serving(ctx, clients, first) {
			return first
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes do not agree on %d owners of every slot: %v", want, first)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serving reports whether each node serves the first slot of each of its
// ranges (no TRYAGAIN: the slots were handed over to it).
func serving(ctx context.Context, clients []*redis.Client, slots []redis.ClusterSlot) bool {
	for _, s := range slots {
		for _, c := range clients {
			if c.Options().Addr != s.Nodes[0].Addr {
				continue
			}
			err := c.Get(ctx, keyInSlot(s.Start)).Err()
			if err != nil && !errors.Is(err, redis.Nil) {
				return false
			}
		}
	}
	return true
}

// keyInSlot returns a key of slot.
func keyInSlot(slot int) string {
	for i := 0; ; i++ {
		if k := "slot:" + strconv.Itoa(i); cluster.KeySlot([]byte(k)) == slot {
			return k
		}
	}
}

// TestClusterMode: three nodes in cluster mode share the slots; a direct
// client gets MOVED and CROSSSLOT as from Redis Cluster, go-redis's
// ClusterClient uses them as one Redis Cluster, and when a node leaves
// its slots move to the others while the cluster client goes on.
func TestClusterMode(t *testing.T) {
	for _, net := range []bool{false, true} {
		name := "mock"
		if net {
			name = "tikv-net"
			if os.Getenv("REKVTEST_TIKV_PD") == "" || !slices.Contains(drivers(), "tikv-net") {
				continue
			}
		} else if !slices.Contains(drivers(), "tikv") {
			continue
		}
		t.Run(name, func(t *testing.T) { clusterMode(t, net) })
	}
}

func clusterMode(t *testing.T, net bool) {
	ctx := context.Background()
	nodes := clusterModeNodes(t, 3, net)
	var clients []*redis.Client
	for _, n := range nodes {
		clients = append(clients, newClient(t, n.Addr(), 2))
	}
	slots := awaitAgreement(t, clients, 3)
	ids := map[string]string{} // address -> node id
	for _, s := range slots {
		ids[s.Nodes[0].Addr] = s.Nodes[0].ID
	}
	for _, c := range clients {
		info := clusterInfo(t, c)
		if info["cluster_state"] != "ok" || info["cluster_known_nodes"] != "3" || info["cluster_size"] != "3" {
			t.Fatalf("CLUSTER INFO: %v", info)
		}
		id, err := c.Do(ctx, "cluster", "myid").Text()
		if err != nil || ids[c.Options().Addr] != id {
			t.Fatalf("CLUSTER MYID %q (%v), CLUSTER SLOTS names %q", id, err, ids[c.Options().Addr])
		}
		nodesText, err := c.ClusterNodes(ctx).Result()
		if err != nil || strings.Count(nodesText, "\n") != 3 || strings.Count(nodesText, "myself,master") != 1 {
			t.Fatalf("CLUSTER NODES: %q %v", nodesText, err)
		}
		if s, err := c.Info(ctx, "cluster").Result(); err != nil || !strings.Contains(s, "cluster_enabled:1") {
			t.Fatalf("INFO cluster: %q %v", s, err)
		}
		for _, tc := range [][2]string{
			{"select 1", "ERR SELECT is not allowed in cluster mode"},
			{"swapdb 0 1", "ERR SWAPDB is not allowed in cluster mode"},
			{"swapdb x 1", "ERR SWAPDB is not allowed in cluster mode"},
			{"move {m}k 1", "ERR MOVE is not allowed in cluster mode"},
			{"move {m}k x", "ERR MOVE is not allowed in cluster mode"},
			{"copy {m}k {m}j db 99", "ERR DB index is out of range"},
		} {
			args := []any{}
			for _, a := range strings.Fields(tc[0]) {
				args = append(args, a)
			}
			err := c.Do(ctx, args...).Err()
			if strings.HasPrefix(fmt.Sprint(err), "MOVED ") {
				continue // {m} is another node's: routed away before the command's own check
			}
			if err == nil || err.Error() != tc[1] {
				t.Fatalf("%s: %v, want %s", tc[0], err, tc[1])
			}
		}
	}

	// CLUSTER LINKS: each node has a link to and one from each other.
	for _, c := range clients {
		awaitLinks(t, c, ids[c.Options().Addr], ids)
	}

	// A direct client: MOVED to the owner, CROSSSLOT across slots.
	owner := func(key string) string {
		slot := cluster.KeySlot([]byte(key))
		for _, s := range slots {
			if slot >= s.Start && slot <= s.End {
				return s.Nodes[0].Addr
			}
		}
		t.Fatalf("no owner for %s", key)
		return ""
	}
	c0 := clients[0]
	var mine, theirs string
	for i := 0; mine == "" || theirs == ""; i++ {
		k := fmt.Sprintf("k%d", i)
		if owner(k) == nodes[0].Addr() {
			mine = k
		} else {
			theirs = k
		}
	}
	must(t, c0.Set(ctx, mine, "v", 0).Err())
	want := fmt.Sprintf("MOVED %d %s", cluster.KeySlot([]byte(theirs)), owner(theirs))
	if err := c0.Set(ctx, theirs, "v", 0).Err(); err == nil || err.Error() != want {
		t.Fatalf("SET on another node's slot: %v, want %s", err, want)
	}
	// Scripts reach only keys of the node's slots (Redis 7.0's texts).
	if v, err := c0.Eval(ctx, "return redis.call('get', ARGV[1])", nil, mine).Text(); err != nil || v != "v" {
		t.Fatalf("a script reading a local key: %q %v", v, err)
	}
	err := c0.Eval(ctx, "return redis.call('get', ARGV[1])", nil, theirs).Err()
	if err == nil || !strings.HasPrefix(err.Error(), "ERR Script attempted to access a non local key in a cluster node script: ") ||
		!strings.HasSuffix(err.Error(), ", on @user_script:1.") {
		t.Fatalf("a script reading another node's key: %v", err)
	}
	if err := c0.Eval(ctx, "return redis.pcall('get', ARGV[1])", nil, theirs).Err(); err == nil ||
		err.Error() != "ERR Script attempted to access a non local key in a cluster node" {
		t.Fatalf("pcall of another node's key: %v", err)
	}
	if err := c0.Do(ctx, "copy", mine, "{"+mine+"}c", "db", "1").Err(); err == nil || err.Error() != "ERR Copying to another database is not allowed in cluster mode" {
		t.Fatalf("COPY ... DB 1: %v", err)
	}
	tagged := "{" + mine + "}"
	if err := c0.MSet(ctx, tagged+"a", 1, tagged+"b", 2).Err(); err != nil {
		t.Fatalf("MSET with one hash tag: %v", err)
	}
	if err := c0.MSet(ctx, mine, 1, theirs, 2).Err(); err == nil || err.Error() != "CROSSSLOT Keys in request don't hash to the same slot" {
		t.Fatalf("MSET across slots: %v", err)
	}
	// In MULTI: a MOVED command aborts the EXEC; an EXEC whose commands
	// span slots is refused and ends the transaction.
	_, err = c0.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, mine, "x", 0)
		p.Set(ctx, theirs, "x", 0)
		return nil
	})
	if err == nil || !strings.HasPrefix(err.Error(), "MOVED") && !strings.HasPrefix(err.Error(), "EXECABORT") {
		t.Fatalf("MULTI with a MOVED command: %v", err)
	}
	raw := dialRaw(t, nodes[0].Addr())
	other := ""
	for i := 0; other == ""; i++ {
		if k := fmt.Sprintf("o%d", i); owner(k) == nodes[0].Addr() && cluster.KeySlot([]byte(k)) != cluster.KeySlot([]byte(mine)) {
			other = k
		}
	}
	for _, step := range [][2]string{
		{"multi", "+OK\r\n"},
		{"set " + mine + " y", "+QUEUED\r\n"},
		{"set " + other + " y", "+QUEUED\r\n"},
		{"exec", "-CROSSSLOT Keys in request don't hash to the same slot\r\n"},
		{"exec", "-ERR EXEC without MULTI\r\n"},
		{"get " + mine, "$1\r\nv\r\n"},
	} {
		if got := raw.do(strings.Fields(step[0])...); got != step[1] {
			t.Fatalf("%s: %q, want %q", step[0], got, step[1])
		}
	}
	if n, err := c0.ClusterCountKeysInSlot(ctx, cluster.KeySlot([]byte(tagged))).Result(); err != nil || n != 3 { // mine and the two tagged with it
		t.Fatalf("COUNTKEYSINSLOT: %d %v", n, err)
	}
	if keys, err := c0.ClusterGetKeysInSlot(ctx, cluster.KeySlot([]byte(tagged)), 10).Result(); err != nil || len(keys) != 3 {
		t.Fatalf("GETKEYSINSLOT: %v %v", keys, err)
	}

	// go-redis's ClusterClient, seeded with one node, finds the others.
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{nodes[0].Addr()}, MaxRedirects: 16,
		ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second})
	t.Cleanup(func() { cc.Close() })
	const keys = 600
	for i := range keys {
		must(t, cc.Set(ctx, fmt.Sprintf("key:%d", i), i, 0).Err())
	}
	perNode := map[string]int{}
	for i := range keys {
		k := fmt.Sprintf("key:%d", i)
		if v, err := cc.Get(ctx, k).Int(); err != nil || v != i {
			t.Fatalf("GET %s through the cluster client: %d %v", k, v, err)
		}
		perNode[owner(k)]++
	}
	if len(perNode) != 3 {
		t.Fatalf("keys per node: %v", perNode)
	}
	if err := cc.MSet(ctx, "{user}:a", 1, "{user}:b", 2).Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := cc.MGet(ctx, "{user}:a", "{user}:b").Result(); err != nil || fmt.Sprint(v) != "[1 2]" {
		t.Fatalf("MGET with a hash tag: %v %v", v, err)
	}

	// The third node leaves while the cluster client writes: its slots go
	// to the other two, and every write acknowledged is there after.
	stop := make(chan struct{})
	done := make(chan error, 1)
	acked := map[string]int{} // the writer's, read after done
	var nacked atomic.Int64   // writes acknowledged so far
	go func() {
		var err error
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- err
				return
			default:
			}
			k := fmt.Sprintf("key:%d", i%keys)
			if e := cc.Set(ctx, k, keys+i, 0).Err(); e != nil && !isNodeGone(e) {
				err = errors.Join(err, fmt.Errorf("SET %s: %w", k, e))
			} else if e == nil {
				acked[k] = keys + i
				nacked.Add(1)
			} else {
				// The node is gone: go-redis rereads the slots only every
				// 10 s or on a MOVED, so an application reloads them.
				cc.ReloadState(ctx)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(200 * time.Millisecond)
	leaving := nodes[2].Addr()
	closeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	must(t, nodes[2].Close(closeCtx))
	slots = awaitAgreement(t, clients[:2], 2)
	for _, s := range slots {
		if s.Nodes[0].Addr == leaving {
			t.Fatalf("slots %d-%d still on the node that left", s.Start, s.End)
		}
	}
	// Writes on the two nodes left: for a second, and until 100 writes
	// were acknowledged in all (at most 10 s more: a handover slows the
	// first writes after it, the more so on a loaded machine).
	time.Sleep(time.Second)
	for end := time.Now().Add(10 * time.Second); nacked.Load() < 100 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(acked) < 50 {
		t.Fatalf("only %d writes acknowledged around the handover", len(acked))
	}
	for k, v := range acked {
		if got, err := cc.Get(ctx, k).Int(); err != nil || got != v {
			t.Fatalf("after the handover GET %s: %d %v, acknowledged %d", k, got, err, v)
		}
	}
}

// isNodeGone reports an error a client may get from a node that is
// closing (its connection ends) or from a store retry: the command was not
// acknowledged, so the test does not count it.
func isNodeGone(err error) bool {
	var ne stdnet.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	return strings.HasPrefix(err.Error(), "TRYAGAIN")
}

// TestClusterClients drives real cluster clients against three nodes in
// cluster mode: ioredis's Cluster and node-redis's createCluster
// (node/cluster.mjs), and redis-cli's -c and --cluster check.
func TestClusterClients(t *testing.T) {
	if !slices.Contains(drivers(), "tikv") {
		t.Skip("cluster mode runs on the TiKV driver's mock here (REKVTEST_DRIVERS)")
	}
	nodes := clusterModeNodes(t, 3, false)
	var addrs []string
	var clients []*redis.Client
	for _, n := range nodes {
		addrs = append(addrs, n.Addr())
		clients = append(clients, newClient(t, n.Addr(), 2))
	}
	slots := awaitAgreement(t, clients, 3)
	t.Run("node", func(t *testing.T) {
		dir := nodeDir(t)
		t.Log(runNodeEnv(t, dir, "cluster.mjs", "REDIS_NODES="+strings.Join(addrs, ",")))
	})
	t.Run("redis-cli", func(t *testing.T) {
		if _, err := exec.LookPath("redis-cli"); err != nil {
			t.Skip("redis-cli not installed (.ci/run installs redis-tools)")
		}
		host, port, _ := strings.Cut(addrs[0], ":")
		run := func(args ...string) string {
			t.Helper()
			out, err := exec.Command("redis-cli", append([]string{"-h", host, "-p", port}, args...)...).CombinedOutput()
			if err != nil {
				t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		// A key another node owns: -c follows the MOVED.
		key := ""
		for i := 0; key == ""; i++ {
			k := fmt.Sprintf("cli:%d", i)
			slot := cluster.KeySlot([]byte(k))
			for _, s := range slots {
				if slot >= s.Start && slot <= s.End && s.Nodes[0].Addr != addrs[0] {
					key = k
				}
			}
		}
		if out := run("-c", "set", key, "v"); strings.TrimSpace(out) != "OK" {
			t.Fatalf("redis-cli -c set: %q", out)
		}
		if out := run("-c", "get", key); strings.TrimSpace(out) != "v" {
			t.Fatalf("redis-cli -c get: %q", out)
		}
		if out := run("get", key); !strings.HasPrefix(out, "MOVED ") && !strings.Contains(out, "MOVED") {
			t.Fatalf("redis-cli without -c: %q", out)
		}
		out := run("--cluster", "check", addrs[0])
		for _, want := range []string{"[OK] All nodes agree about slots configuration.", "[OK] All 16384 slots covered."} {
			if !strings.Contains(out, want) {
				t.Fatalf("redis-cli --cluster check: no %q in\n%s", want, out)
			}
		}
	})
}

// TestClusterNodeKilled: three node processes in cluster mode on the
// network TiKV cluster; one is killed (SIGKILL: it neither leaves nor
// hands over) while cluster clients run GET/SET/INCR on keys of every
// node. Its slots move to the others when its lease ends, the clients
// follow the MOVED and go on; then it restarts at its address and takes
// its share back; the whole history is linearizable (porcupine):
// nothing acknowledged is lost, nothing stale is read.
func TestClusterNodeKilled(t *testing.T) {
	pd := os.Getenv("REKVTEST_TIKV_PD")
	if pd == "" || !hasDriver("tikv-net") {
		t.Skip("needs the network TiKV cluster (REKVTEST_TIKV_PD, REKVTEST_DRIVERS=tikv-net): the nodes are processes")
	}
	ns := netNamespace(t, strings.Split(pd, ","))
	var procs []*exec.Cmd
	var addrs []string
	var clients []*redis.Client
	var ports []int
	spawn := func(port int) (*exec.Cmd, string) {
		return startProcess(t, port, loadedChildEnv+"=--port "+strconv.Itoa(port)+" --driver tikv --pd "+pd+" --cluster",
			"REKV_STORAGE__TIKV__NAMESPACE="+ns, "REKV_CLUSTER__NODE_TIMEOUT=2s")
	}
	for range 3 {
		port := freePort(t)
		cmd, addr := spawn(port)
		procs, addrs, ports = append(procs, cmd), append(addrs, addr), append(ports, port)
		clients = append(clients, newClient(t, addr, 2))
	}
	slots := awaitAgreement(t, clients, 3)
	victim := addrs[2]
	// One key per node, so the victim owns one of them.
	keys := make([]string, 0, 3)
	for _, a := range addrs {
		for i := 0; ; i++ {
			k := fmt.Sprintf("lin%d", i)
			slot := cluster.KeySlot([]byte(k))
			if i := slices.IndexFunc(slots, func(s redis.ClusterSlot) bool { return slot >= s.Start && slot <= s.End }); slots[i].Nodes[0].Addr == a {
				keys = append(keys, k)
				break
			}
		}
	}

	const workers = 6
	start := time.Now()
	killAt, end := 1500*time.Millisecond, 10*time.Second
	var mu sync.Mutex
	var history []porcupine.Operation
	var afterHandover int // successful operations in the last two seconds
	var wg sync.WaitGroup
	for w := range workers {
		cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs[:2], MaxRedirects: 8,
			ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, DialTimeout: time.Second})
		t.Cleanup(func() { cc.Close() })
		wg.Add(1)
		go func(rng *rand.Rand) {
			defer wg.Done()
			ctx := context.Background()
			for time.Since(start) < end {
				call := time.Since(start).Nanoseconds()
				in, out, err := kvStep(ctx, cc, rng, keys)
				ret := time.Since(start).Nanoseconds()
				op := porcupine.Operation{ClientId: w, Input: in, Call: call, Output: out, Return: ret}
				switch {
				case err == nil:
					if time.Duration(ret) > end-2*time.Second {
						mu.Lock()
						afterHandover++
						mu.Unlock()
					}
				case notApplied(err):
					continue
				case in.op == "get":
					cc.ReloadState(ctx) // as the writer does, below
					continue            // a read that failed says nothing
				default:
					// go-redis rereads the slots only every 10 s or on a
					// MOVED, which a killed node never sends: an
					// application reloads them when a node fails.
					cc.ReloadState(ctx)
					// A write to the node being killed: it may have applied.
					op.Output, op.Return = kvOutput{unknown: true}, math.MaxInt64
				}
				mu.Lock()
				history = append(history, op)
				mu.Unlock()
			}
		}(rand.New(rand.NewPCG(uint64(w), 11)))
	}
	time.Sleep(killAt)
	if err := procs[2].Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	slots = awaitAgreement(t, clients[:2], 2)
	t.Logf("the killed node's slots moved after %v", time.Since(killed).Round(time.Millisecond))
	for _, s := range slots {
		if s.Nodes[0].Addr == victim {
			t.Fatalf("slots %d-%d still on the killed node", s.Start, s.End)
		}
	}
	// The killed node comes back at its address, under the same load: it
	// takes a share of the slots again once the others handed them over.
	_, back := spawn(ports[2])
	clients[2] = newClient(t, back, 2)
	awaitAgreement(t, clients, 3)
	t.Logf("the node rejoined and serves its share at %v", time.Since(start).Round(time.Millisecond))
	wg.Wait()
	sort.Slice(history, func(i, j int) bool { return history[i].Call < history[j].Call })
	res := porcupine.CheckOperationsTimeout(kvModel(), history, 60*time.Second)
	t.Logf("%d operations, %d in the last two seconds; %s", len(history), afterHandover, res)
	if res != porcupine.Ok {
		t.Fatalf("history of %d operations is %s, not linearizable", len(history), res)
	}
	if afterHandover < 50 {
		t.Fatalf("only %d operations succeeded after the handover", afterHandover)
	}
}

// TestClusterExpiryBySlotOwner: in cluster mode every node expires the
// keys of its own slots (no GC lease): keys with a short TTL spread over
// three nodes all leave the store, and each node's GC expired some.
func TestClusterExpiryBySlotOwner(t *testing.T) {
	if !hasDriver("tikv") {
		t.Skip("cluster mode runs on the TiKV driver's mock here (REKVTEST_DRIVERS)")
	}
	nodes := clusterModeNodes(t, 3, false)
	var clients []*redis.Client
	for _, n := range nodes {
		clients = append(clients, newClient(t, n.Addr(), 2))
	}
	awaitAgreement(t, clients, 3)
	ctx := context.Background()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{nodes[0].Addr()}})
	t.Cleanup(func() { cc.Close() })
	const keys = 300
	for i := range keys {
		must(t, cc.Set(ctx, fmt.Sprintf("ttl:%d", i), "v", 200*time.Millisecond).Err())
	}
	deadline := time.Now().Add(20 * time.Second)
	for count(t, nodes[0], 't') > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d TTL entries left after 20 s", count(t, nodes[0], 't'))
		}
		time.Sleep(50 * time.Millisecond)
	}
	total := 0
	for i, c := range clients {
		s, err := c.Info(ctx, "gc").Result()
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(infoField(s, "gc_keys_expired"))
		if n == 0 || !strings.Contains(s, "gc_lease_held:0\r\n") {
			t.Fatalf("node %d expired %d keys (each node expires its own slots' keys, with no lease):\n%s", i, n, s)
		}
		total += n
	}
	if total != keys {
		t.Fatalf("the nodes expired %d keys in all, want %d", total, keys)
	}
}

// count returns how many stored keys of n's store start with prefix.
func count(t *testing.T, n *node.Node, prefix byte) int {
	t.Helper()
	tx, err := n.Driver().Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	c := 0
	err = tx.Iterate([]byte{prefix}, []byte{prefix + 1}, rdrivers.IterOptions{KeysOnly: true}, func(_, _ []byte) (bool, error) {
		c++
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
