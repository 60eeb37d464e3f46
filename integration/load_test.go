package integration

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestThousandConnections holds 1,000 connections doing mixed commands at
// once for a bounded time (2 s; REKVTEST_LOAD_SECONDS for longer runs;
// every connection does at least one full round of 5 commands, within a
// hard deadline), then checks the final state against what the clients saw
// acknowledged.
func TestThousandConnections(t *testing.T) {
	seconds := 2
	if s := os.Getenv("REKVTEST_LOAD_SECONDS"); s != "" {
		seconds, _ = strconv.Atoi(s)
	}
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		const conns = 1000
		admin := newClient(t, addr, 2)
		must(t, admin.FlushAll(ctx).Err())
		var incrs, pushes, ops atomic.Int64
		perConn := make([]int64, conns) // acknowledged HINCRBYs of each connection
		added := make([]bool, conns)    // SADD members k:i acknowledged
		var wg sync.WaitGroup
		start := make(chan struct{})
		deadline := time.Now().Add(time.Duration(seconds)*time.Second + 60*time.Second)
		for i := 0; i < conns; i++ {
			c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 1, MaxRetries: -1, Protocol: 2 + i%2,
				ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second})
			defer c.Close()
			if err := c.Ping(ctx).Err(); err != nil { // all 1,000 connected before the load
				t.Fatalf("connection %d: %v", i, err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				end := time.Now().Add(time.Duration(seconds) * time.Second)
				own := fmt.Sprint("k:", i)
				for n := 0; n < 100_000 && (n < 5 || time.Now().Before(end)) && time.Now().Before(deadline); n++ {
					var err error
					switch n % 5 {
					case 0:
						if err = c.Incr(ctx, "total").Err(); err == nil {
							incrs.Add(1)
						}
					case 1:
						err = c.Set(ctx, own, n, 0).Err()
					case 2:
						var v int
						if v, err = c.Get(ctx, own).Int(); err == nil && v != n-1 {
							t.Errorf("connection %d read %d, wrote %d", i, v, n-1)
							return
						}
					case 3:
						if err = c.HIncrBy(ctx, "perconn", own, 1).Err(); err == nil {
							perConn[i]++
						}
					case 4:
						if err = c.LPush(ctx, "log", own).Err(); err == nil {
							pushes.Add(1)
						}
						if err == nil {
							if err = c.SAdd(ctx, "members", own).Err(); err == nil {
								added[i] = true
							}
						}
					}
					if err != nil {
						t.Errorf("connection %d: %v", i, err)
						return
					}
					ops.Add(1)
				}
			}()
		}
		began := time.Now()
		close(start)
		wg.Wait()
		elapsed := time.Since(began)
		if got, _ := admin.Get(ctx, "total").Int64(); got != incrs.Load() {
			t.Errorf("total = %d, acknowledged INCRs %d", got, incrs.Load())
		}
		if got := admin.LLen(ctx, "log").Val(); got != pushes.Load() {
			t.Errorf("LLEN log = %d, acknowledged LPUSHes %d", got, pushes.Load())
		}
		hash := admin.HGetAll(ctx, "perconn").Val()
		active := 0
		for i := 0; i < conns; i++ {
			got, _ := strconv.ParseInt(hash[fmt.Sprint("k:", i)], 10, 64)
			if got != perConn[i] {
				t.Errorf("perconn k:%d = %d, acknowledged %d", i, got, perConn[i])
			}
			if perConn[i] > 0 {
				active++
			}
		}
		members := 0
		for _, a := range added {
			if a {
				members++
			}
		}
		if n := admin.SCard(ctx, "members").Val(); n != int64(members) {
			t.Errorf("SCARD members = %d, want %d", n, members)
		}
		t.Logf("%d connections, %d commands in %v (%.0f/s); %d connections completed a full round",
			conns, ops.Load(), elapsed.Round(time.Millisecond), float64(ops.Load())/elapsed.Seconds(), active)
		if active < conns {
			t.Fatalf("only %d of %d connections got through a round of commands", active, conns)
		}
	})
}

// TestHugePipeline writes 40,000 commands in one go (10,000 on TiKV, whose
// mock runs each GET in its own transaction: still more replies than one
// writev may carry, and more than the in-flight cap) and reads every reply
// in order.
func TestHugePipeline(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		r := dialRaw(t, addr)
		var b strings.Builder
		n := 20_000
		if onTiKV(t) {
			n = 5_000
		}
		for i := 0; i < n; i++ {
			b.WriteString(encode("SET", fmt.Sprint("p:", i), strconv.Itoa(i)))
			b.WriteString(encode("GET", fmt.Sprint("p:", i)))
		}
		go func() {
			if _, err := r.conn.Write([]byte(b.String())); err != nil {
				t.Error(err)
			}
		}()
		for i := 0; i < n; i++ {
			if got := r.reply(); got != "+OK\r\n" {
				t.Fatalf("reply %d to SET = %q", i, got)
			}
			v := strconv.Itoa(i)
			if got := r.reply(); got != fmt.Sprintf("$%d\r\n%s\r\n", len(v), v) {
				t.Fatalf("reply %d to GET = %q", i, got)
			}
		}
	})
}
