package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/codec/rdb"
)

// TestReadRedisFile reads the file Debian's redis-server SAVEs (every
// type in its encodings small and large, expiries, two databases, a
// function library) with rdb.ReadFile, and checks each key against the
// DUMP of the same key from that server, decoded by rdb.Decode.
func TestReadRedisFile(t *testing.T) {
	ctx := context.Background()
	addr := redisServer(t)
	c := newClient(t, addr, 2)
	big := strings.Repeat("abcdefgh", 200) // LZF-compressed in the file
	must(t, c.Set(ctx, "str", "hello", 0).Err())
	must(t, c.Set(ctx, "int", "12345", 0).Err())
	must(t, c.Set(ctx, "neg", "-70000", 0).Err())
	must(t, c.Set(ctx, "big", big, 0).Err())
	must(t, c.PFAdd(ctx, "hll", "a", "b", "c").Err())
	must(t, c.RPush(ctx, "list", "a", "b", "1").Err())
	must(t, c.Set(ctx, "ttl", "v", 0).Err())
	must(t, c.PExpireAt(ctx, "ttl", time.UnixMilli(1893456000123)).Err())
	must(t, c.SAdd(ctx, "intset", 1, 2, 300000).Err())
	must(t, c.SAdd(ctx, "set", "x", "y").Err())
	must(t, c.ZAdd(ctx, "zset", redis.Z{Score: 1.5, Member: "m"}, redis.Z{Score: -2, Member: "n"}).Err())
	must(t, c.HSet(ctx, "hash", "f", "v", "g", "12").Err())
	for i := range 1000 {
		must(t, c.RPush(ctx, "biglist", fmt.Sprintf("element-%d", i)).Err())
		must(t, c.HSet(ctx, "bighash", fmt.Sprintf("field-%d", i), big[:i%50]).Err())
		must(t, c.SAdd(ctx, "bigset", fmt.Sprintf("member-%d", i)).Err())
		must(t, c.ZAdd(ctx, "bigzset", redis.Z{Score: float64(i) / 3, Member: fmt.Sprintf("m%d", i)}).Err())
		must(t, c.XAdd(ctx, &redis.XAddArgs{Stream: "stream", ID: fmt.Sprintf("%d-1", i+1), Values: []any{"k", i}}).Err())
	}
	must(t, c.XGroupCreate(ctx, "stream", "g", "0").Err())
	must(t, c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"stream", ">"}, Count: 5}).Err())
	must(t, c.Do(ctx, "function", "load", "#!lua name=lib\nredis.register_function('f', function() return 1 end)").Err())
	c2 := redis.NewClient(&redis.Options{Addr: addr, DB: 2, Protocol: 2})
	defer c2.Close()
	must(t, c2.Set(ctx, "other", "db2", 0).Err())
	must(t, c.Do(ctx, "save").Err())
	dir, err := c.ConfigGet(ctx, "dir").Result()
	must(t, err)
	file, err := os.ReadFile(filepath.Join(dir["dir"], "dump.rdb"))
	must(t, err)

	clients := map[int]*redis.Client{0: c, 2: c2}
	seen := map[int]int{}
	var codes [][]byte
	version, err := rdb.ReadFile(file, rdb.FileHandler{
		Function: func(code []byte) error { codes = append(codes, code); return nil },
		Entry: func(e rdb.Entry) error {
			cl, ok := clients[e.DB]
			if !ok {
				return fmt.Errorf("key %q in database %d", e.Key, e.DB)
			}
			seen[e.DB]++
			dump, err := cl.Dump(ctx, string(e.Key)).Result()
			if err != nil {
				return err
			}
			body, err := rdb.Verify([]byte(dump))
			if err != nil {
				return err
			}
			want, err := rdb.Decode(body)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(e.Value, want) {
				return fmt.Errorf("key %q: the file's value %+v, DUMP's %+v", e.Key, e.Value, want)
			}
			if raw := append([]byte{e.Type}, e.Payload...); string(raw) != string(body) {
				return fmt.Errorf("key %q: the file's payload is not DUMP's body", e.Key)
			}
			exp, err := cl.Do(ctx, "pexpiretime", string(e.Key)).Int64()
			if err != nil {
				return err
			}
			if exp < 0 {
				exp = 0
			}
			if e.ExpireAt != exp {
				return fmt.Errorf("key %q: expiry %d in the file, PEXPIRETIME %d", e.Key, e.ExpireAt, exp)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatalf("reading redis-server's file (%d bytes): %v", len(file), err)
	}
	if version != 10 && version != 11 && version != 12 {
		t.Fatalf("version %d", version)
	}
	if n0, n2 := c.DBSize(ctx).Val(), c2.DBSize(ctx).Val(); int64(seen[0]) != n0 || int64(seen[2]) != n2 || n0 != 16 {
		t.Fatalf("keys read: %v; DBSIZE 0: %d, 2: %d", seen, n0, n2)
	}
	dump, err := c.Do(ctx, "function", "dump").Text()
	must(t, err)
	body, err := rdb.Verify([]byte(dump))
	must(t, err)
	want, err := rdb.DecodeFunctions(body)
	if err != nil || !reflect.DeepEqual(codes, want) {
		t.Fatalf("function libraries: %q, FUNCTION DUMP's %q (%v)", codes, want, err)
	}
}
