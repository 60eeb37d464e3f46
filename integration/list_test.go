package integration

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestListGoRedis drives every list command through go-redis, RESP2 and 3.
func TestListGoRedis(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, ctx context.Context, c *redis.Client, _ string, _ int) {
		eq := func(what string, got, want any) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s = %v, want %v", what, got, want)
			}
		}
		eq("LPUSH", c.LPush(ctx, "l", "b", "a").Val(), 2)
		eq("RPUSH", c.RPush(ctx, "l", "c", "d").Val(), 4)
		eq("LPUSHX", c.LPushX(ctx, "l", "0").Val(), 5)
		eq("RPUSHX", c.RPushX(ctx, "none", "x").Val(), 0)
		eq("LRANGE", c.LRange(ctx, "l", 0, -1).Val(), []string{"0", "a", "b", "c", "d"})
		eq("LLEN", c.LLen(ctx, "l").Val(), 5)
		eq("LINDEX", c.LIndex(ctx, "l", -1).Val(), "d")
		eq("LINDEX out of range", c.LIndex(ctx, "l", 9).Err(), redis.Nil)
		eq("LSET", c.LSet(ctx, "l", 1, "A").Val(), "OK")
		eq("LSET range", c.LSet(ctx, "l", 9, "x").Err(), "ERR index out of range")
		eq("LINSERT", c.LInsertBefore(ctx, "l", "c", "bc").Val(), 6)
		eq("LINSERT after", c.LInsertAfter(ctx, "l", "d", "e").Val(), 7)
		eq("LRANGE", c.LRange(ctx, "l", 0, -1).Val(), []string{"0", "A", "b", "bc", "c", "d", "e"})
		eq("LPOS", c.LPos(ctx, "l", "c", redis.LPosArgs{}).Val(), 4)
		eq("LPOS COUNT", c.LPosCount(ctx, "l", "b", 0, redis.LPosArgs{}).Val(), []int64{2})
		eq("LREM", c.LRem(ctx, "l", 0, "bc").Val(), 1)
		eq("LTRIM", c.LTrim(ctx, "l", 1, -2).Val(), "OK")
		eq("LRANGE", c.LRange(ctx, "l", 0, -1).Val(), []string{"A", "b", "c", "d"})
		eq("LPOP", c.LPop(ctx, "l").Val(), "A")
		eq("RPOP", c.RPop(ctx, "l").Val(), "d")
		eq("LPOP count", c.LPopCount(ctx, "l", 5).Val(), []string{"b", "c"})
		eq("LPOP missing", c.LPop(ctx, "l").Err(), redis.Nil)
		c.RPush(ctx, "src", "1", "2", "3")
		eq("LMOVE", c.LMove(ctx, "src", "dst", "LEFT", "RIGHT").Val(), "1")
		eq("RPOPLPUSH", c.RPopLPush(ctx, "src", "dst").Val(), "3")
		eq("dst", c.LRange(ctx, "dst", 0, -1).Val(), []string{"3", "1"})
		k, vs, err := c.LMPop(ctx, "right", 5, "none", "dst").Result()
		eq("LMPOP", fmt.Sprint(k, " ", vs, err), "dst [1 3] <nil>")
		eq("BLPOP with data", c.BLPop(ctx, time.Second, "none", "src").Val(), []string{"src", "2"})
		c.RPush(ctx, "src", "x")
		eq("BRPOP with data", c.BRPop(ctx, time.Second, "src").Val(), []string{"src", "x"})
		eq("BLPOP timeout", c.BLPop(ctx, time.Second, "src").Err(), redis.Nil)
		c.RPush(ctx, "src", "y")
		eq("BLMOVE", c.BLMove(ctx, "src", "dst", "RIGHT", "LEFT", time.Second).Val(), "y")
		eq("BRPOPLPUSH", c.BRPopLPush(ctx, "dst", "src", time.Second).Val(), "y")
		eq("BRPOPLPUSH timeout", c.BRPopLPush(ctx, "dst", "src", time.Second).Err(), redis.Nil)
		k, vs, err = c.BLMPop(ctx, time.Second, "left", 2, "none", "src").Result()
		eq("BLMPOP", fmt.Sprint(k, " ", vs, err), "src [y] <nil>")
		c.Set(ctx, "s", "v", 0)
		eq("WRONGTYPE", c.LPush(ctx, "s", "x").Err(), "WRONGTYPE Operation against a key holding the wrong kind of value")
		eq("BLPOP WRONGTYPE", c.BLPop(ctx, time.Second, "s").Err(), "WRONGTYPE Operation against a key holding the wrong kind of value")
		eq("TYPE", c.Type(ctx, "l").Val(), "none")
	})
}

// blockedClients reads INFO's blocked_clients.
func blockedClients(t *testing.T, c *redis.Client) int {
	t.Helper()
	info := c.Info(context.Background(), "clients").Val()
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "blocked_clients:"); ok {
			var n int
			fmt.Sscan(v, &n)
			return n
		}
	}
	t.Fatalf("no blocked_clients in %q", info)
	return 0
}

// waitBlocked waits (bounded) until n clients are blocked.
func waitBlocked(t *testing.T, c *redis.Client, n int) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if blockedClients(t, c) == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("blocked_clients never reached %d (is %d)", n, blockedClients(t, c))
}

type popResult struct {
	v   []string
	err error
}

func goBLPop(c *redis.Client, timeout time.Duration, keys ...string) chan popResult {
	ch := make(chan popResult, 1)
	go func() {
		v, err := c.BLPop(context.Background(), timeout, keys...).Result()
		ch <- popResult{v, err}
	}()
	return ch
}

func recv(t *testing.T, ch chan popResult) popResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("blocked client never answered")
		return popResult{}
	}
}

// TestBlockingPops covers waking, FIFO order of waiters, several keys,
// timeouts, a cancelled wait, and BLMOVE chains across shards.
func TestBlockingPops(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		admin := newClient(t, addr, 2)

		t.Run("woken by a push on its second key", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			ch := goBLPop(newClient(t, addr, 2), 0, "k1", "k2")
			waitBlocked(t, admin, 1)
			must(t, admin.RPush(ctx, "k2", "x", "y").Err())
			if r := recv(t, ch); r.err != nil || fmt.Sprint(r.v) != "[k2 x]" {
				t.Fatalf("BLPOP = %v %v", r.v, r.err)
			}
			if got := admin.LRange(ctx, "k2", 0, -1).Val(); fmt.Sprint(got) != "[y]" {
				t.Fatalf("left %v", got)
			}
			waitBlocked(t, admin, 0)
		})

		t.Run("waiters are served first come first served", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			var chans []chan popResult
			for i := 0; i < 4; i++ {
				chans = append(chans, goBLPop(newClient(t, addr, 2+i%2), 0, "q"))
				waitBlocked(t, admin, i+1)
			}
			must(t, admin.RPush(ctx, "q", "a", "b", "c").Err())
			for i, want := range []string{"a", "b", "c"} {
				if r := recv(t, chans[i]); fmt.Sprint(r.v) != "[q "+want+"]" {
					t.Fatalf("waiter %d got %v %v, want %s", i, r.v, r.err, want)
				}
			}
			waitBlocked(t, admin, 1)
			must(t, admin.LPush(ctx, "q", "d").Err())
			if r := recv(t, chans[3]); fmt.Sprint(r.v) != "[q d]" {
				t.Fatalf("last waiter got %v", r.v)
			}
			if n := admin.Exists(ctx, "q").Val(); n != 0 {
				t.Fatalf("q still exists")
			}
		})

		t.Run("a waiter takes the element before a later LPOP", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			ch := goBLPop(newClient(t, addr, 2), 0, "w")
			waitBlocked(t, admin, 1)
			p := admin.Pipeline()
			p.RPush(ctx, "w", "only")
			pop := p.LPop(ctx, "w")
			_, _ = p.Exec(ctx)
			if r := recv(t, ch); fmt.Sprint(r.v) != "[w only]" {
				t.Fatalf("waiter got %v %v", r.v, r.err)
			}
			if pop.Err() != redis.Nil {
				t.Fatalf("the LPOP after the push got %q, want nil", pop.Val())
			}
		})

		t.Run("timeout", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			c := newClient(t, addr, 3)
			start := time.Now()
			if err := c.BLPop(ctx, time.Second, "none").Err(); err != redis.Nil {
				t.Fatalf("BLPOP = %v, want nil", err)
			}
			if time.Since(start) < time.Second {
				t.Fatalf("returned before its timeout")
			}
			k, _, err := c.BLMPop(ctx, time.Second, "left", 1, "none").Result()
			if err != redis.Nil || k != "" {
				t.Fatalf("BLMPOP = %q %v", k, err)
			}
			waitBlocked(t, admin, 0)
		})

		t.Run("a closed client's wait is cancelled", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			r := dialRaw(t, addr)
			r.write(encode("BLPOP", "gone", "0"))
			waitBlocked(t, admin, 1)
			r.conn.Close()
			waitBlocked(t, admin, 0)
			must(t, admin.RPush(ctx, "gone", "kept").Err())
			if got := admin.LRange(ctx, "gone", 0, -1).Val(); fmt.Sprint(got) != "[kept]" {
				t.Fatalf("the element went to a closed client: %v", got)
			}
		})

		t.Run("commands pipelined after a blocking one wait for it", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			r := dialRaw(t, addr)
			r.write(encode("BLPOP", "p", "0") + encode("LPUSH", "p", "mine"))
			waitBlocked(t, admin, 1)
			must(t, admin.RPush(ctx, "p", "theirs").Err())
			if got := r.reply(); got != "*2\r\n$1\r\np\r\n$6\r\ntheirs\r\n" {
				t.Fatalf("BLPOP = %q", got)
			}
			if got := r.reply(); got != ":1\r\n" {
				t.Fatalf("LPUSH = %q", got)
			}
		})

		t.Run("BLMOVE across shards feeds a BLPOP", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			// Keys on different shards (4 shards; try names until they differ).
			mover := newClient(t, addr, 2)
			moved := make(chan popResult, 1)
			go func() {
				v, err := mover.BLMove(ctx, "{a}src", "dst9", "LEFT", "RIGHT", 0).Result()
				moved <- popResult{[]string{v}, err}
			}()
			waitBlocked(t, admin, 1)
			popped := goBLPop(newClient(t, addr, 2), 0, "dst9")
			waitBlocked(t, admin, 2)
			must(t, admin.RPush(ctx, "{a}src", "v").Err())
			if r := recv(t, moved); r.err != nil || r.v[0] != "v" {
				t.Fatalf("BLMOVE = %v %v", r.v, r.err)
			}
			if r := recv(t, popped); fmt.Sprint(r.v) != "[dst9 v]" {
				t.Fatalf("BLPOP = %v %v", r.v, r.err)
			}
			if n := admin.Exists(ctx, "{a}src", "dst9").Val(); n != 0 {
				t.Fatalf("%d keys left", n)
			}
		})

		t.Run("many producers and consumers: every element exactly once", func(t *testing.T) {
			must(t, admin.FlushAll(ctx).Err())
			const consumers, producers, each = 16, 8, 50
			keys := []string{"m1", "m2", "m3"}
			got := make(chan string, producers*each)
			var wg sync.WaitGroup
			for i := 0; i < consumers; i++ {
				c := newClient(t, addr, 2)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						v, err := c.BLPop(ctx, 2*time.Second, keys...).Result()
						if errors.Is(err, redis.Nil) {
							return // drained
						}
						if err != nil {
							t.Error(err)
							return
						}
						got <- v[1]
					}
				}()
			}
			for p := 0; p < producers; p++ {
				c := newClient(t, addr, 2)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						if err := c.RPush(ctx, keys[i%3], fmt.Sprintf("%d-%d", p, i)).Err(); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			close(got)
			var all []string
			for v := range got {
				all = append(all, v)
			}
			slices.Sort(all)
			n := len(all)
			if distinct := len(slices.Compact(all)); n != producers*each || distinct != n {
				t.Fatalf("received %d elements (%d distinct), want %d", n, distinct, producers*each)
			}
		})
	})
}

// TestBlockedPopOnExpiredKey: a push that would serve a blocked BRPOP
// finds the key expired by then (MULTI: RPUSH, PEXPIRE 100, DEBUG SLEEP
// 0.2, active expiry paused): the client stays blocked and the key is
// deleted, as a Redis lookup deletes it (DBSIZE 0; Redis's unit/type/list
// reads the DEL in the replication stream). rekv left it stored.
func TestBlockedPopOnExpiredKey(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c, blocked := dialRaw(t, a), dialRaw(t, a)
		c.do("FLUSHALL")
		c.do("DEBUG", "SET-ACTIVE-EXPIRE", "0")
		id := strings.TrimSpace(strings.TrimPrefix(blocked.do("CLIENT", "ID"), ":"))
		blocked.write(encode("BRPOP", "k", "0"))
		eventually(t, who+": BRPOP blocks", func() string {
			if l := c.do("CLIENT", "LIST", "ID", id); !strings.Contains(l, "cmd=brpop") {
				return l
			}
			return ""
		})
		c.do("MULTI")
		c.do("RPUSH", "k", "hello")
		c.do("PEXPIRE", "k", "100")
		c.do("DEBUG", "SLEEP", "0.2")
		if got := c.do("EXEC"); !strings.HasPrefix(got, "*3\r\n:1\r\n:1\r\n+OK") {
			t.Fatalf("%s: EXEC = %q", who, got)
		}
		// rekv deletes a key a lookup found expired right after the
		// lookup's command, not within it: wait a moment for it.
		eventually(t, who+": DBSIZE after the expired key was looked up", func() string {
			if got := c.do("DBSIZE"); got != ":0\r\n" {
				return got
			}
			return ""
		})
		if got := c.do("CLIENT", "UNBLOCK", id); got != ":1\r\n" {
			t.Errorf("%s: the BRPOP client is not blocked any more: CLIENT UNBLOCK = %q", who, got)
		}
		c.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
	})
}
