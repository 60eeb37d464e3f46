package integration

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestWatchIncrementsFromManyClients: 20 clients increment one key with
// WATCH/GET/MULTI/SET/EXEC and retry on a nil EXEC; the total is exact.
func TestWatchIncrementsFromManyClients(t *testing.T) {
	forEachDriverClientParallel(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		const clients, each = 20, 25
		var aborted atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < clients; i++ {
			c := newClient(t, addr, 2+i%2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; n < each; {
					err := watchIncr(ctx, c, "counter")
					switch {
					case errors.Is(err, redis.TxFailedErr):
						aborted.Add(1)
						if aborted.Load() > 100_000 {
							t.Error("too many aborted transactions")
							return
						}
					case err != nil:
						t.Error(err)
						return
					default:
						n++
					}
				}
			}()
		}
		wg.Wait()
		if got := admin.Get(ctx, "counter").Val(); got != strconv.Itoa(clients*each) {
			t.Fatalf("counter = %s, want %d", got, clients*each)
		}
		t.Logf("%d increments, %d aborted EXECs retried", clients*each, aborted.Load())
		if aborted.Load() == 0 {
			t.Log("no EXEC was aborted: WATCH conflicts did not occur in this run")
		}
	})
}

// watchIncr adds 1 to key optimistically: WATCH, GET, MULTI, SET, EXEC. It
// returns redis.TxFailedErr when the EXEC was aborted.
func watchIncr(ctx context.Context, c *redis.Client, key string) error {
	return c.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, key).Int()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, key, v+1, 0)
			return nil
		})
		return err
	}, key)
}

// TestExecAtomicAcrossShards: EXEC moves 1 from one of 8 keys (on several
// shards) to another; a concurrent reader's MGET of all keys always sums
// to the same total.
func TestExecAtomicAcrossShards(t *testing.T) {
	forEachDriverClientParallel(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, addr string) {
		keys := make([]string, 8)
		for i := range keys {
			keys[i] = fmt.Sprintf("acct:%d", i)
			must(t, c.Set(ctx, keys[i], 100, 0).Err())
		}
		stop := make(chan struct{})
		var reads atomic.Int64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newClient(t, addr, 2)
			for i := 0; i < 20_000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				vs, err := r.MGet(ctx, keys...).Result()
				if err != nil {
					t.Error(err)
					return
				}
				sum := 0
				for _, v := range vs {
					n, _ := strconv.Atoi(v.(string))
					sum += n
				}
				if sum != 800 {
					t.Errorf("reader saw a partial transaction: sum %d", sum)
					return
				}
				reads.Add(1)
			}
		}()
		deadline := time.Now().Add(5 * time.Second)
		for i := 0; i < 1000 && time.Now().Before(deadline); i++ {
			from, to := keys[i%8], keys[(i*3+1)%8]
			if from == to {
				continue
			}
			cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.DecrBy(ctx, from, 1)
				p.IncrBy(ctx, to, 1)
				return nil
			})
			if err != nil || len(cmds) != 2 {
				t.Fatalf("EXEC: %v", err)
			}
		}
		close(stop)
		wg.Wait()
		if reads.Load() == 0 {
			t.Fatal("the reader read nothing")
		}
	})
}

// TestMultiErrors checks replies through go-redis: EXECABORT, per-command
// runtime errors, and a MULTI that never blocks.
func TestMultiErrors(t *testing.T) {
	forEachDriverClient(t, 3, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		c.Set(ctx, "s", "v", 0)
		cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "n")
			p.LPush(ctx, "s", "x") // WRONGTYPE at run time
			p.BLPop(ctx, 0, "empty")
			p.Incr(ctx, "n")
			return nil
		})
		if err == nil || len(cmds) != 4 {
			t.Fatalf("EXEC = %v (%d replies)", err, len(cmds))
		}
		if cmds[1].Err() == nil || cmds[1].Err().Error() != "WRONGTYPE Operation against a key holding the wrong kind of value" {
			t.Fatalf("LPUSH in EXEC: %v", cmds[1].Err())
		}
		if cmds[2].Err() != redis.Nil {
			t.Fatalf("BLPOP in EXEC: %v, want nil reply", cmds[2].Err())
		}
		if n := c.Get(ctx, "n").Val(); n != "2" {
			t.Fatalf("n = %s", n)
		}
		_, err = c.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "n")
			p.Do(ctx, "nosuchcommand")
			return nil
		})
		if err == nil || err.Error() != "EXECABORT Transaction discarded because of previous errors." {
			t.Fatalf("EXEC after a queueing error: %v", err)
		}
		if n := c.Get(ctx, "n").Val(); n != "2" {
			t.Fatalf("n = %s after an aborted EXEC", n)
		}
	})
}

// TestWatchSurvivesFlushSweep: a WATCH on names a FLUSHALL emptied is not
// broken when the GC later removes the flushed metas (nothing anyone can
// see changes), as in Redis, where those keys are simply gone; it broke
// (a nil EXEC) when the sweep ran between WATCH and EXEC.
func TestWatchSurvivesFlushSweep(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		admin := dialRaw(t, addr)
		const n = 50
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("swept:%d", i)
			must(t, c.Set(ctx, keys[i], "v", 0).Err())
		}
		reclaimed := func() int {
			for _, line := range strings.Split(admin.do("INFO", "gc"), "\r\n") {
				if v, ok := strings.CutPrefix(strings.TrimPrefix(line, "txt:"), "gc_flushed_keys_reclaimed:"); ok {
					n, err := strconv.Atoi(v)
					if err != nil {
						t.Fatalf("gc_flushed_keys_reclaimed: %q", v)
					}
					return n
				}
			}
			t.Fatal("INFO gc has no gc_flushed_keys_reclaimed")
			return 0
		}
		before := reclaimed()
		must(t, c.FlushAll(ctx).Err())
		err := c.Watch(ctx, func(tx *redis.Tx) error {
			deadline := time.Now().Add(20 * time.Second)
			for reclaimed() < before+n {
				if time.Now().After(deadline) {
					t.Fatalf("the GC reclaimed %d of the %d flushed keys in 20 s", reclaimed()-before, n)
				}
				time.Sleep(20 * time.Millisecond)
			}
			_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Ping(ctx)
				return nil
			})
			return err
		}, keys...)
		if err != nil {
			t.Fatalf("EXEC after the flush sweep: %v, want [PONG]", err)
		}
	})
}

// TestWatchStaleKeys: a WATCH on a key already expired when watched (but
// still stored: active expiry paused) is not broken when the key is then
// deleted for having expired — by a lookup's lazy expiry, the GC, a
// FLUSHDB — as Redis 7's unit/multi "WATCH stale keys should not fail
// EXEC" and the tests after it expect; a real write still breaks it, and
// a key live when watched that expires since still fails EXEC.
func TestWatchStaleKeys(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c, other := dialRaw(t, a), dialRaw(t, a)
		run := func(name string, between func(), want string) {
			t.Helper()
			c.do("DEL", "x")
			c.do("DEBUG", "SET-ACTIVE-EXPIRE", "0")
			c.do("SET", "x", "foo", "PX", "1")
			time.Sleep(5 * time.Millisecond)
			c.do("WATCH", "x")
			between()
			c.do("MULTI")
			c.do("PING")
			if got := c.do("EXEC"); got != want {
				t.Errorf("%s: %s: EXEC = %q, want %q", who, name, got, want)
			}
			c.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
		}
		pong, aborted := "*1\r\n+PONG\r\n", "*-1\r\n"
		run("nothing between", func() {}, pong)
		run("a lookup deletes it", func() { other.do("EXISTS", "x") }, pong)
		run("the GC deletes it", func() {
			other.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
			time.Sleep(300 * time.Millisecond)
		}, pong)
		run("FLUSHDB", func() { other.do("FLUSHDB") }, pong)
		run("a SET", func() { other.do("SET", "x", "new") }, aborted)
		// A key live when watched that expires since fails EXEC.
		c.do("SET", "y", "v", "PX", "100")
		c.do("WATCH", "y")
		time.Sleep(200 * time.Millisecond)
		c.do("MULTI")
		c.do("PING")
		if got := c.do("EXEC"); got != aborted {
			t.Errorf("%s: a watched key that expired since: EXEC = %q", who, got)
		}
	})
}
