package integration

import (
	"context"
	"io"
	"log/slog"
	stdnet "net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/drivers/tikv"
	"github.com/rekv/rekv/node"
)

// BenchmarkCrossNodeWake measures how long a client blocked in BLPOP on
// one node waits after another node's RPUSH to the key was acknowledged
// (wake-ms): the bus's wake-up, where the 50 ms poll alone averaged 25.
// Two nodes share the in-process mock TiKV.
//
//	go test ./integration -run '^$' -bench CrossNodeWake -benchtime 200x
func BenchmarkCrossNodeWake(b *testing.B) {
	m, err := tikv.NewMock()
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var addrs []string
	for range 2 {
		cfg := conf.Default()
		cfg.Storage.Driver, cfg.Storage.TiKV.PD, cfg.Actors.Shards = "tikv", []string{tikv.MockPD}, 4
		l, err := stdnet.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		cfg.Server.Port = l.Addr().(*stdnet.TCPAddr).Port
		l.Close()
		db, err := m.Open(node.TiKVOptions(cfg.Storage, log))
		if err != nil {
			b.Fatal(err)
		}
		n, err := node.StartWithDriver(cfg, "", db, log)
		if err != nil {
			b.Fatal(err)
		}
		defer n.Close(context.Background())
		addrs = append(addrs, n.Addr())
	}
	ctx := context.Background()
	pusher := redis.NewClient(&redis.Options{Addr: addrs[0]})
	defer pusher.Close()
	waiter := redis.NewClient(&redis.Options{Addr: addrs[1], ReadTimeout: 10 * time.Second})
	defer waiter.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		s, _ := pusher.Info(ctx, "cluster").Result()
		if strings.Contains(s, "cluster_bus_peers:1\r\n") && strings.Contains(s, "cluster_bus_unreachable:\r\n") {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the nodes' bus never connected:\n%s", s)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		woke := make(chan time.Time, 1)
		go func() {
			if err := waiter.BLPop(ctx, 5*time.Second, "q").Err(); err != nil {
				b.Error(err)
			}
			woke <- time.Now()
		}()
		time.Sleep(5 * time.Millisecond) // let it block
		if err := pusher.RPush(ctx, "q", "x").Err(); err != nil {
			b.Fatal(err)
		}
		pushed := time.Now()
		total += (<-woke).Sub(pushed)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "wake-ms")
}
