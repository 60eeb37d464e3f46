package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestBlockingZSetPops checks BZPOPMIN, BZPOPMAX and BZMPOP waiting and
// being woken by ZADD (and by a *STORE that creates the set), and that a
// waiter is served only from a key of its type.
func TestBlockingZSetPops(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		admin := newClient(t, addr, 2)

		t.Run("BZPOPMIN woken by ZADD on its second key", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			ch := make(chan string, 1)
			go func() {
				v, err := newClient(t, addr, 2).BZPopMin(ctx, 0, "z1", "z2").Result()
				ch <- fmt.Sprint(v, err)
			}()
			waitBlocked(t, admin, 1)
			must(t, admin.ZAdd(ctx, "z2", redis.Z{Score: 2, Member: "b"}, redis.Z{Score: 1, Member: "a"}).Err())
			if got := recvString(t, ch); got != "&{{1 a} z2} <nil>" {
				t.Fatalf("BZPOPMIN = %s", got)
			}
			if got := admin.ZRange(ctx, "z2", 0, -1).Val(); fmt.Sprint(got) != "[b]" {
				t.Fatalf("left %v", got)
			}
		})

		t.Run("BZPOPMAX and BZMPOP served in arrival order", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			ch1, ch2 := make(chan string, 1), make(chan string, 1)
			go func() {
				v, err := newClient(t, addr, 2).BZPopMax(ctx, 0, "q").Result()
				ch1 <- fmt.Sprint(v, err)
			}()
			waitBlocked(t, admin, 1)
			go func() {
				k, zs, err := newClient(t, addr, 3).BZMPop(ctx, 0, "min", 5, "q").Result()
				ch2 <- fmt.Sprint(k, zs, err)
			}()
			waitBlocked(t, admin, 2)
			must(t, admin.ZAdd(ctx, "src", redis.Z{Score: 1, Member: "x"}, redis.Z{Score: 2, Member: "y"}, redis.Z{Score: 3, Member: "z"}).Err())
			must(t, admin.ZUnionStore(ctx, "q", &redis.ZStore{Keys: []string{"src"}}).Err())
			if got := recvString(t, ch1); got != "&{{3 z} q} <nil>" {
				t.Fatalf("BZPOPMAX = %s", got)
			}
			if got := recvString(t, ch2); got != "q[{1 x} {2 y}] <nil>" {
				t.Fatalf("BZMPOP = %s", got)
			}
			if n := admin.Exists(ctx, "q").Val(); n != 0 {
				t.Fatal("q still exists")
			}
		})

		t.Run("timeout", func(t *testing.T) {
			start := time.Now()
			err := newClient(t, addr, 2).BZPopMin(ctx, time.Second, "none").Err()
			if err != redis.Nil || time.Since(start) < time.Second {
				t.Fatalf("BZPOPMIN timeout: %v after %v", err, time.Since(start))
			}
		})

		for _, tc := range []struct{ name, wait string }{{"list", "BLPOP"}, {"zset", "BZPOPMIN"}} {
			t.Run(tc.name+" waiter stays blocked when its key changes type in MULTI", func(t *testing.T) {
				must(t, admin.FlushAll(ctx).Err())
				ch := make(chan string, 1)
				go func() {
					v, err := newClient(t, addr, 2).Do(ctx, tc.wait, "k", 0).Result()
					ch <- fmt.Sprint(v, err)
				}()
				waitBlocked(t, admin, 1)
				_, err := admin.TxPipelined(ctx, func(p redis.Pipeliner) error {
					if tc.name == "list" {
						p.LPush(ctx, "k", "a")
					} else {
						p.ZAdd(ctx, "k", redis.Z{Score: 1, Member: "a"})
					}
					p.Del(ctx, "k")
					p.Set(ctx, "k", "x", 0)
					return nil
				})
				must(t, err)
				waitBlocked(t, admin, 1) // still waiting, no WRONGTYPE
				must(t, admin.Del(ctx, "k").Err())
				if tc.name == "list" {
					must(t, admin.RPush(ctx, "k", "v").Err())
				} else {
					must(t, admin.ZAdd(ctx, "k", redis.Z{Score: 5, Member: "v"}).Err())
				}
				got := recvString(t, ch)
				want := map[string]string{"list": "[k v] <nil>", "zset": "[k v 5] <nil>"}[tc.name]
				if got != want {
					t.Fatalf("%s = %s, want %s", tc.wait, got, want)
				}
			})
		}
	})
}

func recvString(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no reply within 10 s")
		return ""
	}
}
