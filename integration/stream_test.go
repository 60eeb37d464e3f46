package integration

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// TestStreamBlockingRead: clients blocked in XREAD BLOCK are all served by
// the XADD that feeds their stream (reads do not consume), a client waiting
// on two streams is woken by the second, "$" means entries added after the
// call, and a timeout replies nil.
func TestStreamBlockingRead(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		must(t, admin.XAdd(ctx, &redis.XAddArgs{Stream: "s", ID: "1-1", Values: []string{"old", "x"}}).Err())
		const readers = 3
		var wg sync.WaitGroup
		got := make([]string, readers)
		for i := 0; i < readers; i++ {
			c := newClient(t, addr, 2+i%2)
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				res, err := c.XRead(ctx, &redis.XReadArgs{Streams: []string{"other", "s", "0", "$"}, Block: 10 * time.Second}).Result()
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = res[0].Stream + " " + res[0].Messages[0].ID + " " + res[0].Messages[0].Values["new"].(string)
			}(i)
		}
		waitBlocked(t, admin, readers)
		must(t, admin.XAdd(ctx, &redis.XAddArgs{Stream: "s", ID: "2-1", Values: []string{"new", "y"}}).Err())
		wg.Wait()
		for i, g := range got {
			if g != "s 2-1 y" {
				t.Errorf("reader %d got %q", i, g)
			}
		}
		start := time.Now()
		_, err := admin.XRead(ctx, &redis.XReadArgs{Streams: []string{"s", "$"}, Block: 100 * time.Millisecond}).Result()
		if !errors.Is(err, redis.Nil) || time.Since(start) < 100*time.Millisecond {
			t.Fatalf("timeout: %v after %v", err, time.Since(start))
		}
	})
}

// TestStreamAutoIDsAndLifecycle: XADD "*" IDs grow with the clock and
// stay unique under concurrent writers; a stream survives DEL-less
// emptying, goes with DEL, and RENAME keeps its entries and last ID.
func TestStreamAutoIDsAndLifecycle(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			c := newClient(t, addr, 2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 100; i++ {
					if err := c.XAdd(ctx, &redis.XAddArgs{Stream: "s", Values: []string{"i", strconv.Itoa(i)}}).Err(); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		msgs, err := admin.XRange(ctx, "s", "-", "+").Result()
		if err != nil || len(msgs) != 800 {
			t.Fatalf("XRANGE: %d entries, %v", len(msgs), err)
		}
		now := time.Now().UnixMilli()
		for i, m := range msgs {
			msPart, _, _ := strings.Cut(m.ID, "-")
			ms, _ := strconv.ParseInt(msPart, 10, 64)
			if ms > now || ms < now-60_000 {
				t.Fatalf("ID %s is not near the clock (%d)", m.ID, now)
			}
			if i > 0 && m.ID == msgs[i-1].ID {
				t.Fatalf("duplicate ID %s", m.ID)
			}
		}
		must(t, admin.Rename(ctx, "s", "t").Err())
		if n := admin.XLen(ctx, "t").Val(); n != 800 {
			t.Fatalf("XLEN after RENAME = %d", n)
		}
		last := msgs[len(msgs)-1].ID
		if err := admin.XAdd(ctx, &redis.XAddArgs{Stream: "t", ID: last, Values: []string{"a", "b"}}).Err(); err == nil {
			t.Fatal("RENAME lost the last ID: an equal ID was accepted")
		}
		must(t, admin.XTrimMaxLen(ctx, "t", 0).Err())
		if admin.Exists(ctx, "t").Val() != 1 || admin.Type(ctx, "t").Val() != "stream" {
			t.Fatal("an emptied stream must still exist")
		}
		must(t, admin.Del(ctx, "t").Err())
		if admin.Exists(ctx, "t").Val() != 0 {
			t.Fatal("DEL left the stream")
		}
	})
}

// streamEntries is how many entries TestStreamConsumerGroups processes:
// REKVTEST_STREAM_ENTRIES overrides (the figure is 100,000).
func streamEntries(t *testing.T) int {
	if s := os.Getenv("REKVTEST_STREAM_ENTRIES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if onTiKV(t) {
		return 2_000
	}
	return 10_000
}

// TestStreamConsumerGroups: 10 consumers of one group process every entry
// of a stream exactly once with XREADGROUP and XACK; one consumer "crashes"
// holding unacknowledged entries, which another takes over with
// XAUTOCLAIM; XPENDING accounts for everything on the way.
func TestStreamConsumerGroups(t *testing.T) {
	forEachDriverClientParallel(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		n := streamEntries(t)
		must(t, admin.XGroupCreateMkStream(ctx, "jobs", "workers", "0").Err())
		p := admin.Pipeline()
		for i := 0; i < n; i++ {
			p.XAdd(ctx, &redis.XAddArgs{Stream: "jobs", Values: []string{"n", strconv.Itoa(i)}})
			if i%1000 == 999 || i == n-1 {
				if _, err := p.Exec(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		// The crashing consumer reads 50 entries and never acknowledges.
		crashed, err := admin.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "workers", Consumer: "crasher",
			Streams: []string{"jobs", ">"}, Count: 50}).Result()
		if err != nil || len(crashed[0].Messages) != 50 {
			t.Fatalf("crasher read: %v", err)
		}
		var mu sync.Mutex
		seen := make(map[string]int, n)
		var wg sync.WaitGroup
		for w := 0; w < 10; w++ {
			c := newClient(t, addr, 2+w%2)
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				name := "c" + strconv.Itoa(w)
				for {
					res, err := c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "workers", Consumer: name,
						Streams: []string{"jobs", ">"}, Count: 20, Block: 200 * time.Millisecond}).Result()
					if errors.Is(err, redis.Nil) {
						return // drained
					}
					if err != nil {
						t.Error(err)
						return
					}
					var ids []string
					mu.Lock()
					for _, m := range res[0].Messages {
						seen[m.Values["n"].(string)]++
						ids = append(ids, m.ID)
					}
					mu.Unlock()
					if err := c.XAck(ctx, "jobs", "workers", ids...).Err(); err != nil {
						t.Error(err)
						return
					}
				}
			}(w)
		}
		wg.Wait()
		pending, err := admin.XPending(ctx, "jobs", "workers").Result()
		if err != nil || pending.Count != 50 || pending.Consumers["crasher"] != 50 {
			t.Fatalf("after the workers: %+v %v", pending, err)
		}
		ext, err := admin.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: "jobs", Group: "workers", Start: "-", End: "+",
			Count: 100, Consumer: "crasher"}).Result()
		if err != nil || len(ext) != 50 || ext[0].RetryCount != 1 || ext[0].Idle < 0 {
			t.Fatalf("XPENDING extended: %d entries %v", len(ext), err)
		}
		// Recovery: entries idle for at least 1 ms move to a live consumer.
		time.Sleep(5 * time.Millisecond)
		start := "0-0"
		recovered := 0
		for i := 0; i < 100; i++ {
			msgs, next, err := admin.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: "jobs", Group: "workers",
				Consumer: "rescuer", MinIdle: time.Millisecond, Start: start, Count: 20}).Result()
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range msgs {
				seen[m.Values["n"].(string)]++
				ids = append(ids, m.ID)
			}
			recovered += len(ids)
			if len(ids) > 0 {
				must(t, admin.XAck(ctx, "jobs", "workers", ids...).Err())
			}
			if next == "0-0" {
				break
			}
			start = next
		}
		if recovered != 50 {
			t.Fatalf("XAUTOCLAIM recovered %d, want 50", recovered)
		}
		if len(seen) != n {
			t.Fatalf("%d distinct entries processed, want %d", len(seen), n)
		}
		for v, k := range seen {
			if k != 1 {
				t.Fatalf("entry %s processed %d times", v, k)
			}
		}
		if pending, _ := admin.XPending(ctx, "jobs", "workers").Result(); pending.Count != 0 {
			t.Fatalf("pending after recovery: %+v", pending)
		}
		t.Logf("%d entries, each processed once by 10 consumers; 50 recovered by XAUTOCLAIM", n)
	})
}

// TestStreamBlockingGroupRead: consumers blocked in XREADGROUP > share new
// entries (each entry to one consumer), while a plain XREAD waiter on the
// same stream is served too.
func TestStreamBlockingGroupRead(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, admin *redis.Client, addr string) {
		must(t, admin.XGroupCreateMkStream(ctx, "bs", "g", "$").Err())
		results := make(chan string, 3)
		for i := 0; i < 2; i++ {
			c := newClient(t, addr, 2)
			go func(i int) {
				res, err := c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c" + strconv.Itoa(i),
					Streams: []string{"bs", ">"}, Count: 1, Block: 10 * time.Second}).Result()
				if err != nil {
					results <- "error " + err.Error()
					return
				}
				results <- "group " + res[0].Messages[0].ID
			}(i)
		}
		plain := newClient(t, addr, 2)
		go func() {
			res, err := plain.XRead(ctx, &redis.XReadArgs{Streams: []string{"bs", "$"}, Block: 10 * time.Second}).Result()
			if err != nil {
				results <- "error " + err.Error()
				return
			}
			results <- "plain " + res[0].Messages[0].ID
		}()
		waitBlocked(t, admin, 3)
		must(t, admin.XAdd(ctx, &redis.XAddArgs{Stream: "bs", ID: "1-1", Values: []string{"a", "1"}}).Err())
		got := map[string]bool{}
		for i := 0; i < 2; i++ {
			select {
			case r := <-results:
				got[r] = true
			case <-time.After(10 * time.Second):
				t.Fatalf("only %v served", got)
			}
		}
		if !got["group 1-1"] || !got["plain 1-1"] {
			t.Fatalf("served %v: want one group consumer and the plain reader", got)
		}
		must(t, admin.XAdd(ctx, &redis.XAddArgs{Stream: "bs", ID: "2-1", Values: []string{"b", "2"}}).Err())
		select {
		case r := <-results:
			if r != "group 2-1" {
				t.Fatalf("second group consumer got %q", r)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the second group consumer was not served by the second entry")
		}
	})
}

// TestStreamInfoTimes: the time-dependent XINFO fields (consumer idle and
// seen-time, pending delivery times) against the clock.
func TestStreamInfoTimes(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		must(t, c.XGroupCreateMkStream(ctx, "ti", "g", "0").Err())
		must(t, c.XAdd(ctx, &redis.XAddArgs{Stream: "ti", ID: "1-1", Values: []string{"a", "1"}}).Err())
		before := time.Now().UnixMilli()
		must(t, c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"ti", ">"}}).Err())
		time.Sleep(20 * time.Millisecond)
		cons, err := c.XInfoConsumers(ctx, "ti", "g").Result()
		if err != nil || len(cons) != 1 || cons[0].Pending != 1 || cons[0].Idle < 20*time.Millisecond || cons[0].Idle > 10*time.Second {
			t.Fatalf("XINFO CONSUMERS: %+v %v", cons, err)
		}
		full, err := c.XInfoStreamFull(ctx, "ti", 10).Result()
		if err != nil || len(full.Groups) != 1 || len(full.Groups[0].Pending) != 1 {
			t.Fatalf("XINFO STREAM FULL: %+v %v", full, err)
		}
		p := full.Groups[0].Pending[0]
		if p.ID != "1-1" || p.Consumer != "c" || p.DeliveryCount != 1 || p.DeliveryTime.UnixMilli() < before-1000 ||
			p.DeliveryTime.UnixMilli() > time.Now().UnixMilli()+1000 {
			t.Fatalf("FULL pending entry: %+v", p)
		}
	})
}

// TestStreamSurvivesRestart: entries, IDs, groups, consumers and pending
// entries are all in storage.
func TestStreamSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	onDir := func(c *conf.Config) { c.Storage.Badger.Dir = dir }
	first := startNode(t, "badger", onDir)
	c := newClient(t, first.Addr(), 2)
	for i := 1; i <= 3; i++ {
		must(t, c.XAdd(ctx, &redis.XAddArgs{Stream: "rs", ID: strconv.Itoa(i) + "-1", Values: []string{"n", strconv.Itoa(i)}}).Err())
	}
	must(t, c.XGroupCreate(ctx, "rs", "g", "0").Err())
	must(t, c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"rs", ">"}, Count: 2}).Err())
	must(t, c.XDel(ctx, "rs", "3-1").Err())
	c.Close()
	if err := first.Close(ctx); err != nil {
		t.Fatal(err)
	}
	c2 := newClient(t, startNode(t, "badger", onDir).Addr(), 2)
	if n := c2.XLen(ctx, "rs").Val(); n != 2 {
		t.Fatalf("XLEN after restart = %d", n)
	}
	if err := c2.XAdd(ctx, &redis.XAddArgs{Stream: "rs", ID: "3-1", Values: []string{"a", "b"}}).Err(); err == nil {
		t.Fatal("the last ID was lost: 3-1 accepted again")
	}
	p, err := c2.XPending(ctx, "rs", "g").Result()
	if err != nil || p.Count != 2 || p.Lower != "1-1" || p.Higher != "2-1" || p.Consumers["c"] != 2 {
		t.Fatalf("XPENDING after restart: %+v %v", p, err)
	}
	groups, err := c2.XInfoGroups(ctx, "rs").Result()
	if err != nil || len(groups) != 1 || groups[0].LastDeliveredID != "2-1" || groups[0].EntriesRead != 2 {
		t.Fatalf("XINFO GROUPS after restart: %+v %v", groups, err)
	}
}
