package integration

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestStreamBlockingRead: clients blocked in XREAD BLOCK are all served by
// the XADD that feeds their stream (reads do not consume), a client waiting
// on two streams is woken by the second, "$" means entries added after the
// call, and a timeout replies nil.
func TestStreamBlockingRead(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		admin := newClient(t, addr, 2)
		must(t, admin.FlushAll(ctx).Err())
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
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		admin := newClient(t, addr, 2)
		must(t, admin.FlushAll(ctx).Err())
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
