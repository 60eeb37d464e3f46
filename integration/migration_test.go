package integration

import (
	"context"
	"reflect"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// TestOpensPreviousRelease opens data written by the release before
// storage slots were widened (a SAVE of it: testdata/
// release-2026-11-28.backup, made with commit f483dac): a string, a
// chunked string, a hash, a list, a set, a sorted set, a stream, a key
// with a TTL and a hash with a field TTL in database 0, a key in
// database 5 stored under database 3's slot (SWAPDB 3 5), and database
// 7 flushed then written again. Every key reads as written, and the
// databases can be written, swapped and flushed again.
func TestOpensPreviousRelease(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Storage.Badger.Restore = "testdata/release-2026-11-28.backup" })
	ctx := context.Background()
	clients := map[int]*redis.Client{}
	do := func(db int, args ...any) any {
		t.Helper()
		c := clients[db]
		if c == nil {
			c = redis.NewClient(&redis.Options{Addr: n.Addr(), DB: db, Protocol: 2})
			t.Cleanup(func() { _ = c.Close() })
			clients[db] = c
		}
		v, err := c.Do(ctx, args...).Result()
		if err != nil && err != redis.Nil {
			t.Fatalf("%v in db %d: %v", args, db, err)
		}
		return v
	}
	for _, tc := range []struct {
		db   int
		args []any
		want any
	}{
		{0, []any{"GET", "s"}, "hello"},
		{0, []any{"STRLEN", "big"}, int64(20000)},
		{0, []any{"GETRANGE", "big", 19998, -1}, "xx"},
		{0, []any{"HGET", "h", "f2"}, "v2"},
		{0, []any{"HLEN", "h"}, int64(2)},
		{0, []any{"LRANGE", "l", 0, -1}, []any{"a", "b", "c"}},
		{0, []any{"SISMEMBER", "set", "y"}, int64(1)},
		{0, []any{"ZRANGE", "z", 0, -1, "WITHSCORES"}, []any{"a", "1", "b", "2"}},
		{0, []any{"XLEN", "st"}, int64(1)},
		{0, []any{"PEXPIRETIME", "ttl"}, int64(4102444800000)},
		{0, []any{"HPEXPIRETIME", "hf", "FIELDS", 1, "f"}, []any{int64(4102444800000)}},
		{0, []any{"HGET", "hf", "g"}, "w"},
		{0, []any{"DBSIZE"}, int64(9)},
		{5, []any{"GET", "s3"}, "three"},
		{3, []any{"DBSIZE"}, int64(0)},
		{7, []any{"GET", "gone"}, nil},
		{7, []any{"GET", "back"}, "2"},
		{7, []any{"DBSIZE"}, int64(1)},
	} {
		if got := do(tc.db, tc.args...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v in db %d = %#v, want %#v", tc.args, tc.db, got, tc.want)
		}
	}
	// The old records keep working: write, swap back, flush.
	do(5, "SET", "new", "1")
	do(0, "SWAPDB", 3, 5)
	if got := do(3, "MGET", "s3", "new"); !reflect.DeepEqual(got, []any{"three", "1"}) {
		t.Errorf("after SWAPDB 3 5 again, db 3 holds %v", got)
	}
	do(3, "FLUSHDB")
	if got := do(3, "DBSIZE"); got != int64(0) {
		t.Errorf("after FLUSHDB, db 3 has %v keys", got)
	}
	if got := do(0, "GET", "s"); got != "hello" {
		t.Errorf("db 0 after the others' flush: %v", got)
	}
}
