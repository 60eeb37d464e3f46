package integration

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/drivers/tikv"
)

// TestMessagesAcrossNodes: on nodes sharing one store (shared mode and
// cluster mode), what one node's clients publish reaches subscribers on
// every node — each message once, in order per publisher — and keyspace
// notifications and tracking invalidations cross nodes too.
func TestMessagesAcrossNodes(t *testing.T) {
	pd := os.Getenv("REKVTEST_TIKV_PD")
	for _, net := range []bool{false, true} {
		if net && (pd == "" || !hasDriver("tikv-net")) || !net && !hasDriver("tikv") {
			continue
		}
		store := map[bool]string{false: "mock", true: "tikv-net"}[net]
		t.Run("shared/"+store, func(t *testing.T) {
			addrs := []string(nil)
			if net {
				addrs = startNodes(t, 3, strings.Split(pd, ","), tikv.Open)
			} else {
				addrs = startCluster(t, 3)
			}
			messagesAcrossNodes(t, addrs, false)
		})
		t.Run("cluster/"+store, func(t *testing.T) {
			var addrs []string
			for _, n := range clusterModeNodes(t, 3, net) {
				addrs = append(addrs, n.Addr())
			}
			messagesAcrossNodes(t, addrs, true)
		})
	}
}

func hasDriver(d string) bool {
	for _, x := range drivers() {
		if x == d {
			return true
		}
	}
	return false
}

// awaitPeers waits until every node's bus reaches the others.
func awaitPeers(t *testing.T, addrs []string) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for _, a := range addrs {
		c := newClient(t, a, 2)
		for {
			s, err := c.Info(ctx, "cluster").Result()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(s, fmt.Sprintf("cluster_bus_peers:%d\r\n", len(addrs)-1)) && strings.Contains(s, "cluster_bus_unreachable:\r\n") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the bus does not reach every peer:\n%s", a, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func messagesAcrossNodes(t *testing.T, addrs []string, cluster bool) {
	ctx := context.Background()
	awaitPeers(t, addrs)

	// Pub/Sub: a channel and a pattern subscriber on each node; two
	// publishers on different nodes.
	const perPublisher = 200
	type sub struct {
		ps   *redis.PubSub
		name string
	}
	var subs []sub
	for i, a := range addrs {
		c := newClient(t, a, 2)
		for _, pattern := range []bool{false, true} {
			var ps *redis.PubSub
			if pattern {
				ps = c.PSubscribe(ctx, "news.*")
			} else {
				ps = c.Subscribe(ctx, "news.x")
			}
			if _, err := ps.Receive(ctx); err != nil { // the confirmation
				t.Fatal(err)
			}
			t.Cleanup(func() { ps.Close() })
			subs = append(subs, sub{ps, fmt.Sprintf("node %d pattern %v", i, pattern)})
		}
	}
	var wg sync.WaitGroup
	for p := 0; p < 2; p++ {
		pub := newClient(t, addrs[p], 2)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perPublisher {
				if err := pub.Publish(ctx, "news.x", fmt.Sprintf("p%d:%d", p, i)).Err(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range subs {
		next := map[string]int{} // per publisher: the next message expected
		for n := 0; n < 2*perPublisher; n++ {
			rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			m, err := s.ps.ReceiveMessage(rctx)
			cancel()
			if err != nil {
				t.Fatalf("%s after %d messages: %v", s.name, n, err)
			}
			from, seq, _ := strings.Cut(m.Payload, ":")
			if want := fmt.Sprint(next[from]); seq != want {
				t.Fatalf("%s: got %s from %s, want %s (each once, in order)", s.name, seq, from, want)
			}
			next[from]++
		}
	}

	// Keyspace notifications: raised by the node that wrote, delivered
	// on every node; observed on a node other than the writer's.
	for _, a := range addrs {
		must(t, newClient(t, a, 2).ConfigSet(ctx, "notify-keyspace-events", "E$").Err())
	}
	writerAddr := servingNode(t, addrs, "{ev}k")
	observer := addrs[0]
	if observer == writerAddr {
		observer = addrs[1]
	}
	writer := newClient(t, writerAddr, 2)
	far := newClient(t, observer, 2).Subscribe(ctx, "__keyevent@0__:set")
	t.Cleanup(func() { far.Close() })
	if _, err := far.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	// TRYAGAIN: the slot is still being handed over to the node that
	// serves it (the nodes started moments ago); a cluster client retries
	// (CI's network stage once got it here).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := writer.Set(ctx, "{ev}k", "v", 0).Err()
		if err == nil {
			break
		}
		if !strings.HasPrefix(err.Error(), "TRYAGAIN") || time.Now().After(deadline) {
			t.Fatalf("SET {ev}k: %v", err)
		}
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	m, err := far.ReceiveMessage(rctx)
	cancel()
	if err != nil || m.Payload != "{ev}k" {
		t.Fatalf("keyevent on another node: %v %v", m, err)
	}

	// Tracking: a client on one node caches a key another node's client
	// then writes: the invalidation reaches it.
	raw := dialRaw(t, observer)
	raw.do("HELLO", "3")
	must(t, writer.Set(ctx, "{ev}k", "1", 0).Err())
	if cluster {
		// The observer does not own the key (it would answer MOVED):
		// BCAST tracks it without reading it.
		if got := raw.do("CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "{ev}"); got != "+OK\r\n" {
			t.Fatalf("CLIENT TRACKING on BCAST: %q", got)
		}
	} else {
		if got := raw.do("CLIENT", "TRACKING", "on"); got != "+OK\r\n" {
			t.Fatalf("CLIENT TRACKING on: %q", got)
		}
		if got := raw.do("GET", "{ev}k"); got != "$1\r\n1\r\n" {
			t.Fatalf("GET: %q", got)
		}
	}
	must(t, writer.Set(ctx, "{ev}k", "2", 0).Err())
	if got := raw.reply(); got != ">2\r\n$10\r\ninvalidate\r\n*1\r\n$5\r\n{ev}k\r\n" {
		t.Fatalf("invalidation from another node's write: %q", got)
	}
}

// servingNode returns the address of a node that serves key: in cluster
// mode its owner (a MOVED names it), else the first node.
func servingNode(t *testing.T, addrs []string, key string) string {
	t.Helper()
	err := newClient(t, addrs[0], 2).Get(context.Background(), key).Err()
	if err == nil || err == redis.Nil {
		return addrs[0]
	}
	if rest, ok := strings.CutPrefix(err.Error(), "MOVED "); ok {
		_, addr, _ := strings.Cut(rest, " ")
		return addr
	}
	t.Fatalf("GET %s: %v", key, err)
	return ""
}
