package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestSetGoRedis drives every set command through go-redis, RESP2 and 3.
func TestSetGoRedis(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, ctx context.Context, c *redis.Client, _ string, _ int) {
		if n := c.SAdd(ctx, "a", "1", "2", "3").Val(); n != 3 {
			t.Fatalf("SADD = %d", n)
		}
		c.SAdd(ctx, "b", "2", "3", "4")
		sorted := func(v []string) string { slices.Sort(v); return fmt.Sprint(v) }
		if got := sorted(c.SMembers(ctx, "a").Val()); got != "[1 2 3]" {
			t.Fatalf("SMEMBERS = %s", got)
		}
		if got := sorted(c.SInter(ctx, "a", "b").Val()); got != "[2 3]" {
			t.Fatalf("SINTER = %s", got)
		}
		if got := sorted(c.SUnion(ctx, "a", "b").Val()); got != "[1 2 3 4]" {
			t.Fatalf("SUNION = %s", got)
		}
		if got := sorted(c.SDiff(ctx, "a", "b").Val()); got != "[1]" {
			t.Fatalf("SDIFF = %s", got)
		}
		if n := c.SInterCard(ctx, 5, "a", "b").Val(); n != 2 {
			t.Fatalf("SINTERCARD = %d", n)
		}
		if n := c.SInterStore(ctx, "i", "a", "b").Val(); n != 2 {
			t.Fatalf("SINTERSTORE = %d", n)
		}
		if n := c.SUnionStore(ctx, "u", "a", "b").Val(); n != 4 {
			t.Fatalf("SUNIONSTORE = %d", n)
		}
		if n := c.SDiffStore(ctx, "d", "a", "b").Val(); n != 1 {
			t.Fatalf("SDIFFSTORE = %d", n)
		}
		if !c.SIsMember(ctx, "a", "1").Val() || fmt.Sprint(c.SMIsMember(ctx, "a", "1", "9").Val()) != "[true false]" {
			t.Fatal("SISMEMBER/SMISMEMBER")
		}
		if !c.SMove(ctx, "a", "b", "1").Val() || c.SCard(ctx, "b").Val() != 4 {
			t.Fatal("SMOVE")
		}
		if m := c.SRandMemberN(ctx, "b", 2).Val(); len(m) != 2 {
			t.Fatalf("SRANDMEMBER 2 = %v", m)
		}
		if m := c.SPopN(ctx, "u", 4).Val(); len(m) != 4 || c.Exists(ctx, "u").Val() != 0 {
			t.Fatalf("SPOP 4 = %v", m)
		}
		keys, cur, err := c.SScan(ctx, "b", 0, "*", 100).Result()
		if err != nil || cur != 0 || sorted(keys) != "[1 2 3 4]" {
			t.Fatalf("SSCAN = %v %d %v", keys, cur, err)
		}
	})
}

// TestSMoveAtomicAcrossShards moves members between two sets on different
// shards while a reader checks their total never changes.
func TestSMoveAtomicAcrossShards(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		c := newClient(t, addr, 2)
		r := newClient(t, addr, 3)
		var members []any
		for i := 0; i < 20; i++ {
			members = append(members, fmt.Sprint(i))
		}
		must(t, c.SAdd(ctx, "left", members...).Err())
		done := make(chan error, 1)
		go func() {
			for i := 0; i < 400; i++ {
				from, to := "left", "right"
				if i%40 >= 20 {
					from, to = to, from
				}
				if err := c.SMove(ctx, from, to, fmt.Sprint(i%20)).Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		deadline := time.Now().Add(20 * time.Second)
		for finished := false; !finished && time.Now().Before(deadline); {
			select {
			case err := <-done:
				must(t, err)
				finished = true
			default:
			}
			p := r.Pipeline()
			l, rr := p.SCard(ctx, "left"), p.SCard(ctx, "right")
			_, err := p.Exec(ctx)
			must(t, err)
			// The pipeline's two reads are not one snapshot; SUNION is.
			if n := len(r.SUnion(ctx, "left", "right").Val()); n != 20 {
				t.Fatalf("SUNION saw %d members during SMOVE (SCARDs %d+%d)", n, l.Val(), rr.Val())
			}
		}
	})
}
