package integration

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// Hash-field expiration (Redis 7.4's HEXPIRE family, 8.0's HGETDEL,
// HGETEX and HSETEX). Redis 7.0 has none of them, so these tests state
// Redis's documented replies instead of comparing with a local server.

// ints runs a command whose reply is an array of integers.
func intsOf(t *testing.T, c *redis.Client, args ...any) []int64 {
	t.Helper()
	v, err := c.Do(context.Background(), args...).Int64Slice()
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return v
}

func wantInts(t *testing.T, c *redis.Client, want []int64, args ...any) {
	t.Helper()
	if got := intsOf(t, c, args...); !reflect.DeepEqual(got, want) {
		t.Fatalf("%v = %v, want %v", args, got, want)
	}
}

func wantErr(t *testing.T, c *redis.Client, want string, args ...any) {
	t.Helper()
	err := c.Do(context.Background(), args...).Err()
	if err == nil || err.Error() != want {
		t.Fatalf("%v: error %v, want %q", args, err, want)
	}
}

func TestHashFieldExpiryCommands(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		must(t, c.HSet(ctx, "h", "a", "1", "b", "2", "c", "3", "d", "4").Err())
		// Codes: 1 set, -2 no field, 0 condition not met, 2 deleted.
		wantInts(t, c, []int64{1, -2}, "HEXPIRE", "h", 100, "FIELDS", 2, "a", "nope")
		wantInts(t, c, []int64{0, 1}, "HEXPIRE", "h", 200, "NX", "FIELDS", 2, "a", "b")
		wantInts(t, c, []int64{1, 0}, "HEXPIRE", "h", 300, "XX", "FIELDS", 2, "a", "c")
		wantInts(t, c, []int64{0, 1}, "HEXPIRE", "h", 250, "GT", "FIELDS", 2, "a", "b")
		wantInts(t, c, []int64{1, 1, 1}, "HEXPIRE", "h", 50, "LT", "FIELDS", 3, "a", "b", "c") // LT: no TTL is forever
		wantInts(t, c, []int64{1}, "HEXPIRE", "h", 250, "FIELDS", 1, "b")
		wantInts(t, c, []int64{0}, "HEXPIRE", "h", 60, "GT", "FIELDS", 1, "d") // GT: no TTL is forever
		wantInts(t, c, []int64{50, 250, 50, -1, -2}, "HTTL", "h", "FIELDS", 5, "a", "b", "c", "d", "nope")
		pttl := intsOf(t, c, "HPTTL", "h", "FIELDS", 1, "a")
		if pttl[0] <= 49000 || pttl[0] > 50000 {
			t.Fatalf("HPTTL = %v", pttl)
		}
		et := intsOf(t, c, "HEXPIRETIME", "h", "FIELDS", 1, "b")
		pet := intsOf(t, c, "HPEXPIRETIME", "h", "FIELDS", 1, "b")
		now := time.Now().Unix()
		if et[0] < now+248 || et[0] > now+252 || (pet[0]+999)/1000 != et[0] {
			t.Fatalf("HEXPIRETIME = %v, HPEXPIRETIME = %v, now %d", et, pet, now)
		}
		wantInts(t, c, []int64{1, -1, -2}, "HPERSIST", "h", "FIELDS", 3, "a", "d", "nope")
		wantInts(t, c, []int64{-1}, "HTTL", "h", "FIELDS", 1, "a")
		// A time not in the future deletes the field.
		wantInts(t, c, []int64{2}, "HPEXPIREAT", "h", 1, "FIELDS", 1, "d")
		if got := c.HLen(ctx, "h").Val(); got != 3 {
			t.Fatalf("HLEN after deleting by expiry = %d", got)
		}
		// HSET drops a field's TTL; HINCRBY keeps it.
		must(t, c.HSet(ctx, "h", "b", "20").Err())
		c.Do(ctx, "HSET", "h", "n", "1")
		wantInts(t, c, []int64{1}, "HEXPIRE", "h", 100, "FIELDS", 1, "n")
		must(t, c.HIncrBy(ctx, "h", "n", 5).Err())
		wantInts(t, c, []int64{-1, 100}, "HTTL", "h", "FIELDS", 2, "b", "n")
		// Missing keys and other types.
		wantInts(t, c, []int64{-2, -2}, "HTTL", "missing", "FIELDS", 2, "a", "b")
		wantInts(t, c, []int64{-2}, "HEXPIRE", "missing", 10, "FIELDS", 1, "a")
		wantInts(t, c, []int64{-2}, "HPERSIST", "missing", "FIELDS", 1, "a")
		must(t, c.Set(ctx, "s", "v", 0).Err())
		wrongType := "WRONGTYPE Operation against a key holding the wrong kind of value"
		wantErr(t, c, wrongType, "HEXPIRE", "s", "notanumber", "FIELDS", 1, "a")
		wantErr(t, c, wrongType, "HTTL", "s", "FIELDS", 1, "a")
		// Argument errors, worded as Redis.
		wantErr(t, c, "ERR value is not an integer or out of range", "HEXPIRE", "h", "x", "FIELDS", 1, "a")
		wantErr(t, c, "ERR invalid expire time, must be >= 0", "HEXPIRE", "h", -1, "FIELDS", 1, "a")
		wantErr(t, c, "ERR invalid expire time in 'hexpire' command", "HEXPIRE", "h", int64(1)<<50, "FIELDS", 1, "a")
		wantErr(t, c, "ERR Mandatory argument FIELDS is missing or not at the right position", "HEXPIRE", "h", 10, "NX", "XX", "1", "a")
		wantErr(t, c, "ERR Parameter `numFields` should be greater than 0", "HEXPIRE", "h", 10, "FIELDS", 0, "a")
		wantErr(t, c, "ERR The `numfields` parameter must match the number of arguments", "HEXPIRE", "h", 10, "FIELDS", 2, "a")
		wantErr(t, c, "ERR Number of fields must be a positive integer", "HTTL", "h", "FIELDS", -1, "a")
		wantErr(t, c, "ERR wrong number of arguments for 'hexpire' command", "HEXPIRE", "h", 10, "FIELDS", 1)
	})
}

func TestHashFieldsExpire(t *testing.T) {
	forEachDriverClient(t, 3, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		must(t, c.HSet(ctx, "h", "a", "1", "b", "2", "c", "3").Err())
		wantInts(t, c, []int64{1, 1}, "HPEXPIRE", "h", 100, "FIELDS", 2, "a", "b")
		time.Sleep(150 * time.Millisecond)
		// Expired fields are gone at once for every read, before the GC.
		if v, err := c.HGet(ctx, "h", "a").Result(); err != redis.Nil {
			t.Fatalf("HGET of an expired field = %q, %v", v, err)
		}
		if got := c.HLen(ctx, "h").Val(); got != 1 {
			t.Fatalf("HLEN = %d, want 1", got)
		}
		if got := c.HGetAll(ctx, "h").Val(); !reflect.DeepEqual(got, map[string]string{"c": "3"}) {
			t.Fatalf("HGETALL = %v", got)
		}
		if got := c.HExists(ctx, "h", "b").Val(); got {
			t.Fatal("HEXISTS of an expired field")
		}
		keys, _ := c.HScan(ctx, "h", 0, "", 10).Val()
		if !reflect.DeepEqual(keys, []string{"c", "3"}) {
			t.Fatalf("HSCAN = %v", keys)
		}
		if got := c.HRandField(ctx, "h", -5).Val(); len(got) != 5 || strings.Join(got, "") != "ccccc" {
			t.Fatalf("HRANDFIELD = %v", got)
		}
		// HSETNX on an expired field sets it, as a new field.
		if ok := c.HSetNX(ctx, "h", "a", "new").Val(); !ok {
			t.Fatal("HSETNX on an expired field did not set it")
		}
		if got := c.HLen(ctx, "h").Val(); got != 2 {
			t.Fatalf("HLEN after HSETNX = %d", got)
		}
		// When every field expires the GC deletes the hash.
		wantInts(t, c, []int64{1, 1}, "HPEXPIRE", "h", 50, "FIELDS", 2, "a", "c")
		deadline := time.Now().Add(20 * time.Second)
		for c.Exists(ctx, "h").Val() == 1 {
			if time.Now().After(deadline) {
				t.Fatal("a hash whose fields all expired still exists after 20 s")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func TestHashFieldTTLsMoveWithTheKey(t *testing.T) {
	forEachDriverClient(t, 2, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		must(t, c.HSet(ctx, "h", "a", "1", "b", "2").Err())
		wantInts(t, c, []int64{1}, "HEXPIRE", "h", 1000, "FIELDS", 1, "a")
		must(t, c.Copy(ctx, "h", "h2", 0, false).Err())
		must(t, c.Rename(ctx, "h", "h3").Err())
		for _, k := range []string{"h2", "h3"} {
			wantInts(t, c, []int64{1000, -1}, "HTTL", k, "FIELDS", 2, "a", "b")
		}
		// DUMP and RESTORE keep the TTLs.
		dump, err := c.Dump(ctx, "h3").Result()
		if err != nil {
			t.Fatal(err)
		}
		must(t, c.Restore(ctx, "h4", 0, dump).Err())
		wantInts(t, c, []int64{1000, -1}, "HTTL", "h4", "FIELDS", 2, "a", "b")
		if got := c.HGetAll(ctx, "h4").Val(); !reflect.DeepEqual(got, map[string]string{"a": "1", "b": "2"}) {
			t.Fatalf("HGETALL after RESTORE = %v", got)
		}
		// Overwriting the key drops its fields' TTLs with it.
		must(t, c.Del(ctx, "h2").Err())
		must(t, c.HSet(ctx, "h2", "a", "x").Err())
		wantInts(t, c, []int64{-1}, "HTTL", "h2", "FIELDS", 1, "a")
	})
}

func TestHashGetDelGetExSetEx(t *testing.T) {
	forEachDriverClient(t, 3, func(t *testing.T, ctx context.Context, c *redis.Client, _ string) {
		must(t, c.HSet(ctx, "h", "a", "1", "b", "", "c", "3").Err())
		got, err := c.Do(ctx, "HGETDEL", "h", "FIELDS", 3, "a", "nope", "b").Slice()
		if err != nil || !reflect.DeepEqual(got, []any{"1", nil, ""}) {
			t.Fatalf("HGETDEL = %#v, %v", got, err)
		}
		if got := c.HKeys(ctx, "h").Val(); !reflect.DeepEqual(got, []string{"c"}) {
			t.Fatalf("after HGETDEL: %v", got)
		}
		c.Do(ctx, "HGETDEL", "h", "FIELDS", 1, "c")
		if c.Exists(ctx, "h").Val() != 0 {
			t.Fatal("HGETDEL of the last field left the hash")
		}
		// HSETEX: all or none, with an expiry.
		if n, err := c.Do(ctx, "HSETEX", "h", "FXX", "FIELDS", 1, "a", "1").Int(); n != 0 || err != nil {
			t.Fatalf("HSETEX FXX on a missing key = %d, %v", n, err)
		}
		if n, err := c.Do(ctx, "HSETEX", "h", "EX", 100, "FIELDS", 2, "a", "1", "b", "2").Int(); n != 1 || err != nil {
			t.Fatalf("HSETEX EX = %d, %v", n, err)
		}
		wantInts(t, c, []int64{100, 100}, "HTTL", "h", "FIELDS", 2, "a", "b")
		if n := c.Do(ctx, "HSETEX", "h", "FNX", "FIELDS", 2, "a", "x", "z", "y").Val(); n != int64(0) {
			t.Fatalf("HSETEX FNX with an existing field = %v", n)
		}
		if n := c.Do(ctx, "HSETEX", "h", "KEEPTTL", "FIELDS", 1, "a", "k").Val(); n != int64(1) {
			t.Fatalf("HSETEX KEEPTTL = %v", n)
		}
		must(t, c.Do(ctx, "HSETEX", "h", "FIELDS", 1, "b", "plain").Err())
		wantInts(t, c, []int64{100, -1}, "HTTL", "h", "FIELDS", 2, "a", "b")
		if v := c.HGet(ctx, "h", "a").Val(); v != "k" {
			t.Fatalf("after KEEPTTL: %q", v)
		}
		wantErr(t, c, "ERR Only one of FXX or FNX arguments can be specified", "HSETEX", "h", "FNX", "FXX", "FIELDS", 1, "a", "b")
		wantErr(t, c, "ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified", "HSETEX", "h", "EX", 1, "KEEPTTL", "FIELDS", 1, "a", "b")
		wantErr(t, c, "ERR unknown argument: BOGUS", "HSETEX", "h", "BOGUS", "FIELDS", 1, "a", "b")
		wantErr(t, c, "ERR wrong number of arguments for 'hsetex' command", "HSETEX", "h", "FIELDS", 2, "a", "b")
		// HGETEX: values, and the expiry set, removed or in the past.
		got, err = c.Do(ctx, "HGETEX", "h", "PX", 5000, "FIELDS", 2, "b", "nope").Slice()
		if err != nil || !reflect.DeepEqual(got, []any{"plain", nil}) {
			t.Fatalf("HGETEX PX = %#v, %v", got, err)
		}
		pt := intsOf(t, c, "HPTTL", "h", "FIELDS", 1, "b")
		if pt[0] <= 4000 || pt[0] > 5000 {
			t.Fatalf("HPTTL after HGETEX PX = %v", pt)
		}
		c.Do(ctx, "HGETEX", "h", "PERSIST", "FIELDS", 1, "b")
		wantInts(t, c, []int64{-1}, "HTTL", "h", "FIELDS", 1, "b")
		got, err = c.Do(ctx, "HGETEX", "h", "EXAT", 1, "FIELDS", 1, "b").Slice()
		if err != nil || !reflect.DeepEqual(got, []any{"plain"}) {
			t.Fatalf("HGETEX EXAT past = %#v, %v", got, err)
		}
		if ok := c.HExists(ctx, "h", "b").Val(); ok {
			t.Fatal("HGETEX with a past time kept the field")
		}
		wantErr(t, c, "ERR Mandatory argument FIELDS is missing or not at the right position", "HGETEX", "h", "EX", 10, "a")
	})
}

// TestHashFieldEvents: the keyspace events of field expiry, as Redis
// names them.
func TestHashFieldEvents(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.NotifyKeyspaceEvents = "Egh" })
	ctx := context.Background()
	c := newClient(t, n.Addr(), 2)
	ps := newClient(t, n.Addr(), 3).PSubscribe(ctx, "__keyevent@0__:*")
	defer ps.Close()
	if _, err := ps.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	must(t, c.HSet(ctx, "h", "a", "1", "b", "2").Err())
	wantInts(t, c, []int64{1}, "HPEXPIRE", "h", 30000, "FIELDS", 1, "a")
	wantInts(t, c, []int64{1}, "HPERSIST", "h", "FIELDS", 1, "a")
	wantInts(t, c, []int64{1}, "HPEXPIRE", "h", 50, "FIELDS", 1, "a")
	wantInts(t, c, []int64{2}, "HPEXPIRE", "h", 0, "FIELDS", 1, "b")
	want := []string{"hset", "hexpire", "hpersist", "hexpire", "hdel", "hexpired", "del"}
	var got []string
	for len(got) < len(want) {
		select {
		case m := <-ps.Channel():
			if m.Payload != "h" {
				t.Fatalf("event %s for %q", m.Channel, m.Payload)
			}
			got = append(got, strings.TrimPrefix(m.Channel, "__keyevent@0__:"))
		case <-time.After(20 * time.Second):
			t.Fatalf("events %v, want %v", got, want)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}
