package integration

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"sort"
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

// TestClusterHandover: cluster clients run GET/SET/INCR on keys of every
// slot range while a third node joins (slots move from two live nodes to
// it) and then a first node leaves (its slots move at once). Each node's
// caches are authoritative for the slots it serves, so a slot's new owner
// must not serve it before the old one stopped and finished its writes
// (TRYAGAIN meanwhile), and must not trust what it cached of it before:
// the whole history must be linearizable (porcupine). On the in-process
// mock, and on the network cluster when REKVTEST_TIKV_PD names one.
func TestClusterHandover(t *testing.T) {
	for _, drv := range []string{"mock", "net"} {
		t.Run(drv, func(t *testing.T) {
			pd, open := []string{tikv.MockPD}, (func(tikv.Options) (*tikv.DB, error))(nil)
			ns := ""
			if drv == "net" {
				env := os.Getenv("REKVTEST_TIKV_PD")
				if env == "" || !hasDriver("tikv-net") {
					t.Skip("needs the network TiKV cluster (REKVTEST_TIKV_PD, REKVTEST_DRIVERS=tikv-net)")
				}
				pd, open = strings.Split(env, ","), tikv.Open
				ns = netNamespace(t, pd)
			} else {
				if !hasDriver("tikv") {
					t.Skip("the in-process mock runs with the tikv driver (REKVTEST_DRIVERS)")
				}
				open = sharedMock(t).Open
			}
			edit := func(c *conf.Config) {
				c.Cluster.Enabled = true
				c.Cluster.NodeTimeout = time.Second
				if ns != "" {
					c.Storage.TiKV.Namespace = ns // one store for the nodes started apart
				}
			}
			logs := func(int) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
			start := func(n int) []*node.Node { return startNodesWith(t, n, pd, open, logs, edit) }
			handover(t, start)
		})
	}
}

func handover(t *testing.T, start func(n int) []*node.Node) {
	nodes := start(2)
	var addrs []string
	for _, n := range nodes {
		addrs = append(addrs, n.Addr())
	}
	awaitAgreement(t, []*redis.Client{newClient(t, addrs[0], 2), newClient(t, addrs[1], 2)}, 2)
	keys := make([]string, 12)
	for i := range keys {
		keys[i] = fmt.Sprintf("ho%d", i)
	}

	const workers = 6
	t0 := time.Now()
	// The clients run for end, and past it, up to limit, until minLate
	// operations succeeded after the handovers: under CI's load 9 s once
	// left 40 (141-785 in runs here). Fewer by limit is a failure.
	const (
		end     = 9 * time.Second
		limit   = 30 * time.Second
		minLate = 50
	)
	var late atomic.Int64 // operations that succeeded after the handovers
	var mu sync.Mutex
	var history []porcupine.Operation
	var tryAgain int
	errs := map[string]int{}
	// left is when the first node had left and the others agreed (ns
	// since t0; 0 before): what succeeded after it counts as served
	// after the handovers. (The last three seconds alone once held 46
	// operations under CI's load, against 141-785 in runs here.)
	var left atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, MaxRedirects: 16,
			ReadTimeout: time.Second, WriteTimeout: time.Second, DialTimeout: time.Second})
		t.Cleanup(func() { cc.Close() })
		wg.Add(1)
		go func(rng *rand.Rand) {
			defer wg.Done()
			ctx := context.Background()
			for el := time.Since(t0); el < end || late.Load() < minLate && el < limit; el = time.Since(t0) {
				call := time.Since(t0).Nanoseconds()
				in, out, err := kvStep(ctx, cc, rng, keys)
				ret := time.Since(t0).Nanoseconds()
				op := porcupine.Operation{ClientId: w, Input: in, Call: call, Output: out, Return: ret}
				handedOver := err != nil && strings.HasPrefix(err.Error(), "TRYAGAIN") && strings.Contains(err.Error(), "handed over")
				mu.Lock()
				after := left.Load() != 0 && ret > left.Load()
				if err != nil && after {
					errs[err.Error()]++
				}
				switch {
				case err == nil:
					if after {
						late.Add(1)
					}
				case handedOver:
					tryAgain++ // refused before it ran: not applied
				case notApplied(err):
				case in.op == "get":
					// A read that failed says nothing.
				default:
					// A write that failed otherwise (a node closing): it may
					// have applied.
					op.Output, op.Return = kvOutput{unknown: true}, math.MaxInt64
				}
				if err == nil || !handedOver && !notApplied(err) && in.op != "get" {
					history = append(history, op)
				}
				mu.Unlock()
				// Half the clients reread the slots all the time, so during a
				// handover some reach the new owner while the others still
				// reach the old one.
				if err != nil || w%2 == 1 && rng.IntN(5) == 0 {
					cc.ReloadState(ctx)
				}
			}
		}(rand.New(rand.NewPCG(uint64(w), 17)))
	}
	time.Sleep(1500 * time.Millisecond)
	third := start(1)[0]
	addrs = append(addrs, third.Addr())
	awaitAgreement(t, []*redis.Client{newClient(t, addrs[0], 2), newClient(t, addrs[1], 2), newClient(t, addrs[2], 2)}, 3)
	t.Logf("a third node joined and took its share after %v", time.Since(t0).Round(time.Millisecond))
	time.Sleep(1500 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := nodes[0].Close(ctx); err != nil {
		t.Fatalf("close the first node: %v", err)
	}
	awaitAgreement(t, []*redis.Client{newClient(t, addrs[1], 2), newClient(t, addrs[2], 2)}, 2)
	left.Store(time.Since(t0).Nanoseconds())
	t.Logf("the first node left at %v", time.Since(t0).Round(time.Millisecond))
	wg.Wait()
	sort.Slice(history, func(i, j int) bool { return history[i].Call < history[j].Call })
	res := porcupine.CheckOperationsTimeout(kvModel(), history, 60*time.Second)
	t.Logf("%d operations, %d after the handovers, %d TRYAGAIN during handovers (errors after them: %v); %s",
		len(history), late.Load(), tryAgain, errs, res)
	if res != porcupine.Ok {
		t.Fatalf("history of %d operations is %s, not linearizable", len(history), res)
	}
	if n := late.Load(); n < minLate {
		t.Fatalf("only %d operations succeeded after the handovers (errors then: %v)", n, errs)
	}
}
