package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/drivers/tikv"
	"github.com/rekv/rekv/node"
)

// startCluster starts n rekv nodes in this process sharing one in-process
// mock TiKV cluster, each with its own client state, and returns their
// addresses.
func startCluster(t *testing.T, n int) []string {
	t.Helper()
	return startNodes(t, n, []string{tikv.MockPD}, sharedMock(t).Open)
}

// sharedMock returns an in-process mock TiKV cluster that several nodes
// may share, closed when t ends (after its nodes: cleanups run last-in
// first-out).
func sharedMock(t *testing.T) *tikv.Mock {
	t.Helper()
	m, err := tikv.NewMock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("close mock: %v", err)
		}
	})
	return m
}

// startNodes starts n nodes on a shared TiKV cluster (pd), each on a
// driver from open.
func startNodes(t *testing.T, n int, pd []string, open func(tikv.Options) (*tikv.DB, error)) []string {
	t.Helper()
	return startNodesLog(t, n, pd, open, func(int) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) })
}

// startNodesLog is startNodes with node i logging to logs(i).
func startNodesLog(t *testing.T, n int, pd []string, open func(tikv.Options) (*tikv.DB, error), logs func(int) *slog.Logger) []string {
	t.Helper()
	var addrs []string
	for _, nd := range startNodesWith(t, n, pd, open, logs, nil) {
		addrs = append(addrs, nd.Addr())
	}
	return addrs
}

// startNodesWith is startNodesLog returning the nodes, each node's config
// adjusted by edit (when not nil).
func startNodesWith(t *testing.T, n int, pd []string, open func(tikv.Options) (*tikv.DB, error), logs func(int) *slog.Logger,
	edit func(*conf.Config)) []*node.Node {
	t.Helper()
	var ns string
	if pd[0] != tikv.MockPD {
		ns = netNamespace(t, pd)
	}
	var nodes []*node.Node
	for i := 0; i < n; i++ {
		log := logs(i)
		cfg := conf.Default()
		cfg.Storage.Driver = "tikv"
		cfg.Storage.TiKV.PD = pd
		cfg.Storage.Shared = true
		if pd[0] != tikv.MockPD {
			cfg.Storage.TiKV.Namespace = ns // the nodes of one cluster share it
		}
		cfg.Actors.Shards = 4
		if edit != nil {
			edit(&cfg)
		}
		var nd *node.Node
		var err error
		for try := 0; try < 5; try++ {
			db, oerr := open(node.TiKVOptions(cfg.Storage, log))
			if oerr != nil {
				t.Fatal(oerr)
			}
			cfg.Server.Port = freePort(t)
			if nd, err = node.StartWithDriver(cfg, "", db, log); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { // before the mock's cleanup: cleanups run last-in first-out
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := nd.Close(ctx); err != nil {
				t.Errorf("close node: %v", err)
			}
		})
		nodes = append(nodes, nd)
	}
	return nodes
}

// notApplied reports a reply that says the command did not run: TRYAGAIN
// ... was not applied (the node lost every retry against the other nodes,
// or the store was unavailable) or MISCONF (writes refused while the store
// fails); not TRYAGAIN ... may or may not have been applied.
func notApplied(err error) bool {
	return err != nil && (strings.HasPrefix(err.Error(), "MISCONF") ||
		strings.HasPrefix(err.Error(), "TRYAGAIN") && strings.Contains(err.Error(), "was not applied"))
}

// TestMultiNodeExactState: clients on three nodes hammer the same keys
// with INCR, HINCRBY, LPUSH, SADD/SREM, then LPOP a shared list dry. The
// final state must account for every acknowledged write exactly, and no
// element may be popped twice.
func TestMultiNodeExactState(t *testing.T) {
	exactState(t, startCluster(t, 3))
}

func exactState(t *testing.T, addrs []string) {
	if err := newClient(t, addrs[0], 2).Del(context.Background(), "ctr", "h", "l", "s").Err(); err != nil {
		t.Fatal(err)
	}
	const perNode, ops = 3, 80
	deadline := time.Now().Add(60 * time.Second)
	var incrs, hincrs, retries atomic.Int64
	var mu sync.Mutex
	pushed := map[string]bool{}
	members := map[string]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, len(addrs)*perNode)
	for n, addr := range addrs {
		for c := 0; c < perNode; c++ {
			wg.Add(1)
			go func(id string, rc *redis.Client) {
				defer wg.Done()
				ctx := context.Background()
				for i := 0; i < ops && time.Now().Before(deadline); i++ {
					var err error
					switch i % 4 {
					case 0:
						if err = rc.Incr(ctx, "ctr").Err(); err == nil {
							incrs.Add(1)
						}
					case 1:
						if err = rc.HIncrBy(ctx, "h", "f", 1).Err(); err == nil {
							hincrs.Add(1)
						}
					case 2:
						v := fmt.Sprintf("%s-%d", id, i)
						if err = rc.LPush(ctx, "l", v).Err(); err == nil {
							mu.Lock()
							pushed[v] = true
							mu.Unlock()
						}
					case 3:
						v := fmt.Sprintf("%s-%d", id, i)
						if err = rc.SAdd(ctx, "s", v).Err(); err != nil {
							break
						}
						mu.Lock()
						members[v] = true
						mu.Unlock()
						if i%8 == 3 {
							if err = rc.SRem(ctx, "s", v).Err(); err == nil {
								mu.Lock()
								delete(members, v)
								mu.Unlock()
							}
						}
					}
					if notApplied(err) {
						retries.Add(1)
					} else if err != nil {
						errs <- fmt.Errorf("client %s op %d: %w", id, i, err)
						return
					}
				}
			}(fmt.Sprintf("n%dc%d", n, c), newClient(t, addr, 2))
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Logf("acknowledged: %d INCR, %d HINCRBY, %d LPUSH, %d set members; %d TRYAGAIN replies",
		incrs.Load(), hincrs.Load(), len(pushed), len(members), retries.Load())
	ctx := context.Background()
	for i, addr := range addrs { // every node sees the same final state
		rc := newClient(t, addr, 2)
		if got, _ := rc.Get(ctx, "ctr").Int64(); got != incrs.Load() {
			t.Errorf("node %d: ctr = %d, acknowledged INCRs %d", i, got, incrs.Load())
		}
		if got, _ := rc.HGet(ctx, "h", "f").Int64(); got != hincrs.Load() {
			t.Errorf("node %d: h.f = %d, acknowledged HINCRBYs %d", i, got, hincrs.Load())
		}
		list, err := rc.LRange(ctx, "l", 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		if !sameSet(list, pushed) {
			t.Errorf("node %d: list has %d elements, %d pushes acknowledged (or different ones)", i, len(list), len(pushed))
		}
		set, err := rc.SMembers(ctx, "s").Result()
		if err != nil {
			t.Fatal(err)
		}
		if !sameSet(set, members) {
			t.Errorf("node %d: set has %d members, want %d", i, len(set), len(members))
		}
		if n, _ := rc.SCard(ctx, "s").Result(); n != int64(len(members)) {
			t.Errorf("node %d: SCARD = %d, want %d", i, n, len(members))
		}
	}
	popAll(t, addrs, pushed)
}

// popAll pops the list dry from every node at once and checks each pushed
// element came out exactly once.
func popAll(t *testing.T, addrs []string, pushed map[string]bool) {
	t.Helper()
	var mu sync.Mutex
	popped := map[string]int{}
	var wg sync.WaitGroup
	deadline := time.Now().Add(60 * time.Second)
	for _, addr := range addrs {
		for c := 0; c < 3; c++ {
			wg.Add(1)
			go func(rc *redis.Client) {
				defer wg.Done()
				for i := 0; i < 10*len(pushed) && time.Now().Before(deadline); i++ {
					v, err := rc.LPop(context.Background(), "l").Result()
					if errors.Is(err, redis.Nil) {
						return
					}
					if notApplied(err) {
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					popped[v]++
					mu.Unlock()
				}
			}(newClient(t, addr, 2))
		}
	}
	wg.Wait()
	for v, n := range popped {
		if n != 1 || !pushed[v] {
			t.Errorf("%q popped %d times (pushed: %v)", v, n, pushed[v])
		}
	}
	if len(popped) != len(pushed) {
		t.Errorf("popped %d distinct elements, %d were pushed", len(popped), len(pushed))
	}
}

func sameSet(got []string, want map[string]bool) bool {
	if len(got) != len(want) {
		return false
	}
	for _, v := range got {
		if !want[v] {
			return false
		}
	}
	return true
}

// kvInput and kvOutput are one GET, SET or INCR of the linearizability
// history.
type kvInput struct {
	op, key, val string
}

type kvOutput struct {
	val    string
	exists bool
	// unknown: the command failed with an error that leaves its outcome
	// open (a write in flight when the store went away); its return is
	// at the end of the history, so it may have applied at any time, or
	// never before the history's reads.
	unknown bool
}

// kvModel is the sequential specification of GET/SET/INCR on string keys,
// partitioned per key.
func kvModel() porcupine.Model {
	return porcupine.Model{
		Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
			byKey := map[string][]porcupine.Operation{}
			for _, op := range h {
				k := op.Input.(kvInput).key
				byKey[k] = append(byKey[k], op)
			}
			var out [][]porcupine.Operation
			for _, ops := range byKey {
				out = append(out, ops)
			}
			return out
		},
		Init: func() any { return kvOutput{} },
		Step: func(state, input, output any) (bool, any) {
			s, in, out := state.(kvOutput), input.(kvInput), output.(kvOutput)
			switch in.op {
			case "get":
				return out == s, s
			case "set":
				return true, kvOutput{val: in.val, exists: true}
			default: // incr
				n := int64(0)
				if s.exists {
					n, _ = strconv.ParseInt(s.val, 10, 64)
				}
				next := kvOutput{val: strconv.FormatInt(n+1, 10), exists: true}
				return out.unknown || out == next, next
			}
		},
		DescribeOperation: func(input, output any) string {
			in, out := input.(kvInput), output.(kvOutput)
			return fmt.Sprintf("%s %s %s -> %q %v", in.op, in.key, in.val, out.val, out.exists)
		},
	}
}

// TestMultiNodeLinearizable records a history of GET, SET and INCR on
// three keys from clients spread over three nodes and checks it is
// linearizable (porcupine).
func TestMultiNodeLinearizable(t *testing.T) {
	linearizable(t, startCluster(t, 3))
}

func linearizable(t *testing.T, addrs []string) {
	keys := []string{"x", "y", "z"}
	if err := newClient(t, addrs[0], 2).Del(context.Background(), keys...).Err(); err != nil {
		t.Fatal(err)
	}
	const perNode, ops = 3, 150
	start := time.Now()
	deadline := start.Add(60 * time.Second)
	var mu sync.Mutex
	var history []porcupine.Operation
	var wg sync.WaitGroup
	for n, addr := range addrs {
		for c := 0; c < perNode; c++ {
			wg.Add(1)
			id := n*perNode + c
			go func(rc *redis.Client, rng *rand.Rand) {
				defer wg.Done()
				ctx := context.Background()
				for i := 0; i < ops && time.Now().Before(deadline); i++ {
					call := time.Since(start).Nanoseconds()
					in, out, err := kvStep(ctx, rc, rng, keys)
					ret := time.Since(start).Nanoseconds()
					if notApplied(err) {
						continue // not applied: not part of the history
					}
					if err != nil {
						t.Errorf("client %d: %s %s: %v", id, in.op, in.key, err)
						return
					}
					mu.Lock()
					history = append(history, porcupine.Operation{ClientId: id, Input: in, Call: call, Output: out, Return: ret})
					mu.Unlock()
				}
			}(newClient(t, addr, 2), rand.New(rand.NewPCG(uint64(id), 7)))
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	sort.Slice(history, func(i, j int) bool { return history[i].Call < history[j].Call })
	res := porcupine.CheckOperationsTimeout(kvModel(), history, 60*time.Second)
	t.Logf("%d operations checked: %s", len(history), res)
	if res != porcupine.Ok {
		t.Fatalf("history of %d operations is %s, not linearizable", len(history), res)
	}
	if len(history) < len(addrs)*perNode*ops/2 {
		t.Fatalf("only %d operations recorded", len(history))
	}
}

// kvStep runs one random command of the linearizability histories on
// rc: GET (40%), SET of a random value (30%) or INCR (30%) of one of keys.
func kvStep(ctx context.Context, rc redis.Cmdable, rng *rand.Rand, keys []string) (kvInput, kvOutput, error) {
	in := kvInput{key: keys[rng.IntN(len(keys))]}
	var out kvOutput
	var err error
	switch r := rng.IntN(10); {
	case r < 4:
		in.op = "get"
		out.val, err = rc.Get(ctx, in.key).Result()
		out.exists = err == nil
		if errors.Is(err, redis.Nil) {
			err = nil
		}
	case r < 7:
		in.op, in.val = "set", strconv.Itoa(rng.IntN(1000))
		err = rc.Set(ctx, in.key, in.val, 0).Err()
	default:
		in.op = "incr"
		var v int64
		v, err = rc.Incr(ctx, in.key).Result()
		out = kvOutput{val: strconv.FormatInt(v, 10), exists: true}
	}
	return in, out, err
}

// TestLinearizabilityCheckerCatchesStaleRead guards the checker itself: a
// history with a read of an overwritten value must be refused.
func TestLinearizabilityCheckerCatchesStaleRead(t *testing.T) {
	h := []porcupine.Operation{
		{ClientId: 0, Input: kvInput{op: "set", key: "x", val: "1"}, Call: 0, Output: kvOutput{}, Return: 10},
		{ClientId: 0, Input: kvInput{op: "set", key: "x", val: "2"}, Call: 20, Output: kvOutput{}, Return: 30},
		{ClientId: 1, Input: kvInput{op: "get", key: "x"}, Call: 40, Output: kvOutput{val: "1", exists: true}, Return: 50},
	}
	if porcupine.CheckOperations(kvModel(), h) {
		t.Fatal("a stale read passed the check")
	}
	h[2].Output = kvOutput{val: "2", exists: true}
	if !porcupine.CheckOperations(kvModel(), h) {
		t.Fatal("a fresh read failed the check")
	}
}

// TestRealTiKVCluster runs the multi-node workloads on two nodes of a real
// TiKV cluster when REKVTEST_TIKV_PD names its PD endpoints (comma
// separated), in a namespace of its own.
func TestRealTiKVCluster(t *testing.T) {
	pd := os.Getenv("REKVTEST_TIKV_PD")
	if pd == "" {
		t.Skip("REKVTEST_TIKV_PD not set: no real TiKV cluster to test against")
	}
	addrs := startNodes(t, 2, strings.Split(pd, ","), tikv.Open)
	t.Run("ExactState", func(t *testing.T) { exactState(t, addrs) })
	t.Run("Linearizable", func(t *testing.T) { linearizable(t, addrs) })
}

// TestMultiNodeBlockingPop: clients blocked in BLPOP/BLMOVE on one node
// are woken by pushes on other nodes, each element delivered once.
func TestMultiNodeBlockingPop(t *testing.T) {
	addrs := startCluster(t, 3)
	ctx := context.Background()
	type popped struct {
		val string
		err error
	}
	const waiters = 4
	got := make(chan popped, waiters+1)
	for i := 0; i < waiters; i++ {
		rc := newClient(t, addrs[i%2], 2)
		go func() {
			r, err := rc.BLPop(ctx, 10*time.Second, "q").Result()
			if err != nil {
				got <- popped{err: err}
				return
			}
			got <- popped{val: r[1]}
		}()
	}
	mover := newClient(t, addrs[1], 2)
	go func() {
		v, err := mover.BLMove(ctx, "src", "dst", "LEFT", "RIGHT", 10*time.Second).Result()
		got <- popped{val: v, err: err}
	}()
	pusher := newClient(t, addrs[2], 2)
	time.Sleep(300 * time.Millisecond) // let the waiters block first
	for i := 0; i < waiters; i++ {
		if err := pusher.RPush(ctx, "q", fmt.Sprintf("v%d", i)).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := pusher.RPush(ctx, "src", "moved").Err(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := 0; i < waiters+1; i++ {
		p := <-got
		if p.err != nil {
			t.Fatalf("blocked client: %v", p.err)
		}
		if seen[p.val] {
			t.Fatalf("%q delivered twice", p.val)
		}
		seen[p.val] = true
	}
	for _, v := range []string{"v0", "v1", "v2", "v3", "moved"} {
		if !seen[v] {
			t.Errorf("%q never delivered (got %v)", v, seen)
		}
	}
	if n, _ := pusher.LLen(ctx, "q").Result(); n != 0 {
		t.Errorf("q still holds %d elements", n)
	}
	if v, _ := pusher.LRange(ctx, "dst", 0, -1).Result(); len(v) != 1 || v[0] != "moved" {
		t.Errorf("dst = %q", v)
	}
}

// TestMultiNodeWatch: a WATCH on one node is broken by writes made on
// another — a SET, a member-only HSET, a FLUSHDB — and holds otherwise;
// optimistic increments from clients on three nodes add up exactly.
func TestMultiNodeWatch(t *testing.T) {
	addrs := startCluster(t, 3)
	ctx := context.Background()
	a, b := newClient(t, addrs[0], 2), newClient(t, addrs[1], 2)
	if err := b.HSet(ctx, "hw", "f", "1").Err(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, key string
		write     func() error // on node b, between WATCH and EXEC; nil: none
		survives  bool         // the write leaves the watch whole
	}{
		{"untouched", "k", nil, false},
		{"set", "k", func() error { return b.Set(ctx, "k", "other", 0).Err() }, false},
		{"field update", "hw", func() error { return b.HSet(ctx, "hw", "f", "2").Err() }, false},
		{"swapdb", "hw", func() error { return b.Do(ctx, "swapdb", 0, 1).Err() }, false},
		{"flushdb", "fk", func() error { return b.FlushDB(ctx).Err() }, false}, // fk exists: set below
		{"flushdb of a missing key", "nosuchkey", func() error { return b.FlushDB(ctx).Err() }, true},
	}
	for _, tc := range cases {
		if tc.key == "fk" {
			must(t, b.Set(ctx, "fk", "1", 0).Err()) // FLUSHDB breaks only watches of keys that existed, as Redis
		}
		err := a.Watch(ctx, func(tx *redis.Tx) error {
			if tc.write != nil {
				if err := tc.write(); err != nil {
					t.Fatal(err)
				}
			}
			_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "done-"+tc.name, "1", 0)
				return nil
			})
			return err
		}, tc.key)
		switch {
		case (tc.write == nil || tc.survives) && err != nil:
			t.Errorf("%s: EXEC failed: %v", tc.name, err)
		case tc.write != nil && !tc.survives && !errors.Is(err, redis.TxFailedErr):
			t.Errorf("%s: EXEC after a write on another node: %v, want the transaction to fail", tc.name, err)
		}
	}

	// Optimistic increments through every node.
	const clients, each = 12, 15
	var wg sync.WaitGroup
	var aborted atomic.Int64
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(rc *redis.Client) {
			defer wg.Done()
			deadline := time.Now().Add(60 * time.Second)
			for done := 0; done < each && time.Now().Before(deadline); {
				err := watchIncr(ctx, rc, "wctr")
				switch {
				case err == nil:
					done++
				case errors.Is(err, redis.TxFailedErr), notApplied(err):
					aborted.Add(1)
				default:
					t.Error(err)
					return
				}
			}
		}(newClient(t, addrs[i%len(addrs)], 2))
	}
	wg.Wait()
	if got, _ := a.Get(ctx, "wctr").Int(); got != clients*each {
		t.Fatalf("wctr = %d, want %d (%d aborted attempts)", got, clients*each, aborted.Load())
	}
	t.Logf("%d increments, %d aborted attempts retried", clients*each, aborted.Load())
}

// TestMultiNodeSwapDB: a SWAPDB on one node is what every node sees next,
// for reads, writes and DBSIZE.
func TestMultiNodeSwapDB(t *testing.T) {
	addrs := startCluster(t, 3)
	ctx := context.Background()
	db := func(i, n int) *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: addrs[i], DB: n, Protocol: 2})
		t.Cleanup(func() { c.Close() })
		return c
	}
	must(t, db(0, 0).Set(ctx, "k", "zero", 0).Err())
	must(t, db(0, 1).RPush(ctx, "l", "one").Err())
	must(t, db(1, 0).Do(ctx, "swapdb", 0, 1).Err())
	for i := range addrs {
		if v := db(i, 1).Get(ctx, "k").Val(); v != "zero" {
			t.Fatalf("node %d: GET k in db 1 = %q after SWAPDB", i, v)
		}
		if v := db(i, 0).LRange(ctx, "l", 0, -1).Val(); fmt.Sprint(v) != "[one]" {
			t.Fatalf("node %d: LRANGE l in db 0 = %v after SWAPDB", i, v)
		}
		if n := db(i, 0).Exists(ctx, "k").Val(); n != 0 {
			t.Fatalf("node %d: k still in db 0", i)
		}
	}
	must(t, db(2, 0).Set(ctx, "after", "1", 0).Err())
	must(t, db(0, 0).Do(ctx, "swapdb", 1, 0).Err())
	if v := db(1, 1).Get(ctx, "after").Val(); v != "1" {
		t.Fatalf("a write after the swap did not follow db 0: %q", v)
	}
	if n := db(2, 0).DBSize(ctx).Val(); n != 1 {
		t.Fatalf("DBSIZE db 0 = %d, want 1 (k)", n)
	}
}

// TestMultiNodeFlushSeen: a node's transactions presume each database's
// flush record as last seen and confirm it with their first read; a
// FLUSHDB on another node must still be what every node sees next, for
// reads of strings and collections and for writes after it.
func TestMultiNodeFlushSeen(t *testing.T) {
	addrs := startCluster(t, 3)
	ctx := context.Background()
	cs := make([]*redis.Client, len(addrs))
	for i, a := range addrs {
		cs[i] = redis.NewClient(&redis.Options{Addr: a, Protocol: 2})
		t.Cleanup(func() { cs[i].Close() })
	}
	for round := 0; round < 3; round++ {
		must(t, cs[0].Set(ctx, "k", "v", 0).Err())
		must(t, cs[0].HSet(ctx, "h", "f", "v").Err())
		for i, c := range cs { // every node has seen the record as it is
			if v := c.Get(ctx, "k").Val(); v != "v" {
				t.Fatalf("round %d node %d: GET k = %q before the flush", round, i, v)
			}
		}
		flusher := cs[round%len(cs)]
		must(t, flusher.FlushDB(ctx).Err())
		for i, c := range cs {
			if n, err := c.Exists(ctx, "k", "h").Result(); err != nil || n != 0 {
				t.Fatalf("round %d node %d: EXISTS k h = %d, %v after FLUSHDB", round, i, n, err)
			}
			if v, err := c.HGet(ctx, "h", "f").Result(); err != redis.Nil {
				t.Fatalf("round %d node %d: HGET h f = %q, %v after FLUSHDB", round, i, v, err)
			}
		}
		must(t, cs[2].Set(ctx, "after", "1", 0).Err())
		for i, c := range cs {
			if v := c.Get(ctx, "after").Val(); v != "1" {
				t.Fatalf("round %d node %d: a write after the flush reads %q", round, i, v)
			}
		}
	}
}

// TestMultiNodeScripts: a rate-limiter script run by 9 clients on three
// nodes sharing TiKV admits exactly its limit, and its counter equals the
// calls applied (a call that lost every conflict retry replies TRYAGAIN
// and is not applied).
func TestMultiNodeScripts(t *testing.T) {
	addrs := startCluster(t, 3)
	ctx := context.Background()
	limiter := redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n > tonumber(ARGV[1]) then return 0 end
return 1`)
	const limit, clients, each = 40, 9, 10
	var applied, admitted atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		c := newClient(t, addrs[i%3], 2)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < each; n++ {
				ok, err := limiter.Run(ctx, c, []string{"rl"}, limit).Int()
				if notApplied(err) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				applied.Add(1)
				admitted.Add(int64(ok))
			}
		}()
	}
	wg.Wait()
	n, err := newClient(t, addrs[1], 2).Get(ctx, "rl").Int64()
	if err != nil || n != applied.Load() {
		t.Fatalf("counter %d (%v), applied %d", n, err, applied.Load())
	}
	if want := min(applied.Load(), limit); admitted.Load() != want {
		t.Fatalf("admitted %d, want %d (applied %d)", admitted.Load(), want, applied.Load())
	}
	t.Logf("%d of %d calls applied, %d admitted", applied.Load(), clients*each, admitted.Load())
}

// TestMultiNodeStreamRead: a client blocked in XREAD on one node is woken
// by an XADD on another node sharing the TiKV cluster.
func TestMultiNodeStreamRead(t *testing.T) {
	addrs := startCluster(t, 2)
	ctx := context.Background()
	a, b := newClient(t, addrs[0], 2), newClient(t, addrs[1], 2)
	must(t, b.XAdd(ctx, &redis.XAddArgs{Stream: "ms", ID: "1-1", Values: []string{"f", "old"}}).Err())
	done := make(chan string, 1)
	go func() {
		res, err := a.XRead(ctx, &redis.XReadArgs{Streams: []string{"ms", "1-1"}, Block: 10 * time.Second}).Result()
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res[0].Messages[0].ID
	}()
	waitBlocked(t, a, 1)
	must(t, b.XAdd(ctx, &redis.XAddArgs{Stream: "ms", ID: "2-1", Values: []string{"f", "new"}}).Err())
	select {
	case got := <-done:
		if got != "2-1" {
			t.Fatalf("XREAD on node a got %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("XREAD on node a was not woken by XADD on node b")
	}
}
