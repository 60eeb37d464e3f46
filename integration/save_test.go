package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// snapshot returns every key of databases 0-3 with its DUMP payload and
// whether it has a TTL: what a restored store must hold alike.
func snapshot(t *testing.T, addr string) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	for db := 0; db < 4; db++ {
		c := redis.NewClient(&redis.Options{Addr: addr, DB: db, MaxRetries: -1})
		keys, err := c.Keys(ctx, "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			dump, err := c.Dump(ctx, k).Result()
			if err != nil {
				t.Fatalf("DUMP %s: %v", k, err)
			}
			ttl := c.PTTL(ctx, k).Val()
			out[fmt.Sprintf("%d/%s", db, k)] = fmt.Sprintf("%x ttl=%v", dump, ttl > 0)
		}
		c.Close()
	}
	return out
}

// fill writes keys of every type, some with a TTL, some in database 3.
func fill(t *testing.T, c *redis.Client, prefix string) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB: a chunked string
	must(c.Set(ctx, prefix+"str", "v", 0).Err())
	must(c.Set(ctx, prefix+"big", big, 0).Err())
	must(c.Set(ctx, prefix+"ttl", "soon", time.Hour).Err())
	must(c.IncrBy(ctx, prefix+"n", 42).Err())
	must(c.HSet(ctx, prefix+"h", "a", "1", "b", "2").Err())
	must(c.RPush(ctx, prefix+"l", "x", "y", "z").Err())
	must(c.SAdd(ctx, prefix+"s", "m1", "m2", 3).Err())
	must(c.ZAdd(ctx, prefix+"z", redis.Z{Score: 1.5, Member: "a"}, redis.Z{Score: -2, Member: "b"}).Err())
	must(c.XAdd(ctx, &redis.XAddArgs{Stream: prefix + "x", ID: "1-1", Values: []string{"f", "v"}}).Err())
	must(c.XGroupCreate(ctx, prefix+"x", "g", "0").Err())
	must(c.PFAdd(ctx, prefix+"hll", "a", "b", "c").Err())
	must(c.GeoAdd(ctx, prefix+"geo", &redis.GeoLocation{Name: "p", Longitude: 13.36, Latitude: 38.11}).Err())
	must(c.SetBit(ctx, prefix+"bits", 1000, 1).Err())
	must(c.Do(ctx, "SELECT", 3).Err())
	must(c.Set(ctx, prefix+"db3", "three", 0).Err())
	must(c.Do(ctx, "SELECT", 0).Err())
}

// TestSaveRestore: SAVE writes a backup; a node started from it (storage.
// badger.restore) holds every key saved — all types, TTLs, other
// databases — and none written after the save; BGSAVE does the same in
// the background; a backup is never loaded over existing data. TiKV
// answers SAVE with an error naming its own backup tools.
func TestSaveRestore(t *testing.T) {
	ctx := context.Background()
	backup := filepath.Join(t.TempDir(), "rekv.backup")
	a := startNode(t, "badger", func(c *conf.Config) { c.Storage.Badger.BackupFile = backup })
	ca := newClient(t, a.Addr(), 2)
	if got := ca.Do(ctx, "CONFIG", "GET", "dbfilename").Val(); fmt.Sprint(got) != "[dbfilename rekv.backup]" {
		t.Fatalf("CONFIG GET dbfilename = %v", got)
	}
	fill(t, ca, "k:")
	want := snapshot(t, a.Addr())
	before := ca.LastSave(ctx).Val()
	time.Sleep(1100 * time.Millisecond) // LASTSAVE has a one-second grain
	if err := ca.Save(ctx).Err(); err != nil {
		t.Fatalf("SAVE: %v", err)
	}
	if after := ca.LastSave(ctx).Val(); after <= before {
		t.Fatalf("LASTSAVE %d not after %d", after, before)
	}
	if info := ca.Info(ctx, "persistence").Val(); !strings.Contains(info, "rdb_changes_since_last_save:0\r\n") ||
		!strings.Contains(info, "rdb_saves:1\r\n") {
		t.Fatalf("INFO persistence after SAVE:\n%s", info)
	}
	ca.Set(ctx, "after:save", "not in the backup", 0)
	if info := ca.Info(ctx, "persistence").Val(); strings.Contains(info, "rdb_changes_since_last_save:0\r\n") {
		t.Fatalf("a write after SAVE not counted:\n%s", info)
	}

	restored := func(t *testing.T, file string) string {
		n := startNode(t, "badger", func(c *conf.Config) { c.Storage.Badger.Restore = file })
		return n.Addr()
	}
	got := snapshot(t, restored(t, backup))
	if len(got) != len(want) {
		t.Fatalf("restored %d keys, saved %d:\n%v\n%v", len(got), len(want), sortedKeys(got), sortedKeys(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("restored %s differs:\n got  %.120s\n want %.120s", k, got[k], v)
		}
	}

	// BGSAVE: answers at once, the file then holds the later write too.
	if got := ca.BgSave(ctx).Val(); got != "Background saving started" {
		t.Fatalf("BGSAVE = %q", got)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(ca.Info(ctx, "persistence").Val(), "rdb_saves:2\r\n") {
		if time.Now().After(deadline) {
			t.Fatalf("BGSAVE did not complete:\n%s", ca.Info(ctx, "persistence").Val())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cb := newClient(t, restored(t, backup), 2)
	if v := cb.Get(ctx, "after:save").Val(); v != "not in the backup" {
		t.Fatalf("after BGSAVE, restored after:save = %q", v)
	}
	if err := ca.Do(ctx, "BGSAVE", "NOW").Err(); err == nil || err.Error() != "ERR syntax error" {
		t.Fatalf("BGSAVE NOW: %v", err)
	}

	// Never over existing data.
	cfg := conf.Default()
	cfg.Storage.Badger.Dir = t.TempDir()
	cfg.Storage.Badger.Durability = "no"
	cfg.Server.Port = freePort(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := node.Start(cfg, "", log)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, n.Addr(), 2)
	c.Set(ctx, "existing", "1", 0)
	closeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := n.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	cfg.Storage.Badger.Restore = backup
	if n, err := node.Start(cfg, "", log); err == nil {
		_ = n.Close(closeCtx)
		t.Fatal("a backup was restored over existing data")
	} else if !strings.Contains(err.Error(), "already holds data") {
		t.Fatalf("restore over data: %v", err)
	}
	cfg.Storage.Badger.Dir = t.TempDir()
	cfg.Storage.Badger.Restore = filepath.Join(t.TempDir(), "missing")
	if _, err := node.Start(cfg, "", log); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("restore of a missing file: %v", err)
	}

	ct := newClient(t, startNode(t, "tikv", nil).Addr(), 2)
	if err := ct.Save(ctx).Err(); err == nil || !strings.Contains(err.Error(), "SAVE needs the badger driver") {
		t.Fatalf("SAVE on tikv: %v", err)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestWaitAOF: WAITAOF (Redis 7.2) syncs the store for numlocal and
// counts it; with no replicas, numreplicas waits out the timeout.
func TestWaitAOF(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		c := dialRaw(t, addr)
		c.do("SET", "k", "v")
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"WAITAOF", "1", "0", "0"}, "*2\r\n:1\r\n:0\r\n"},
			{[]string{"WAITAOF", "0", "0", "0"}, "*2\r\n:0\r\n:0\r\n"},
			{[]string{"WAITAOF", "x", "0", "0"}, "-ERR value is not an integer or out of range\r\n"},
			{[]string{"WAITAOF", "1", "0", "-1"}, "-ERR timeout is negative\r\n"},
			{[]string{"WAITAOF", "1", "0"}, "-ERR wrong number of arguments for 'waitaof' command\r\n"},
		} {
			if got := c.do(tc.args...); got != tc.want {
				t.Errorf("%v = %q, want %q", tc.args, got, tc.want)
			}
		}
		start := time.Now()
		if got := c.do("WAITAOF", "1", "1", "150"); got != "*2\r\n:1\r\n:0\r\n" || time.Since(start) < 140*time.Millisecond {
			t.Errorf("WAITAOF 1 1 150 = %q after %v", got, time.Since(start))
		}
	})
}

// TestBgrewriteaof: BGREWRITEAOF compacts the store in the background with
// Redis's replies — started, already in progress, scheduled after a
// BGSAVE — and INFO persistence's aof_* fields follow it.
func TestBgrewriteaof(t *testing.T) {
	n := startNode(t, "badger", nil)
	c := dialRaw(t, n.Addr())
	for i := range 200 {
		c.do("SET", fmt.Sprintf("k%d", i), strings.Repeat("v", 1000))
	}
	c.do("FLUSHALL")
	if got := c.do("BGREWRITEAOF"); got != "+Background append only file rewriting started\r\n" {
		t.Fatalf("BGREWRITEAOF: %q", got)
	}
	if got := c.do("BGREWRITEAOF"); got != "-ERR Background append only file rewriting already in progress\r\n" &&
		got != "+Background append only file rewriting started\r\n" { // the first may have ended already
		t.Errorf("BGREWRITEAOF again: %q", got)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(c.do("INFO", "persistence"), "\r\naof_rewrite_in_progress:0\r\n") {
		if time.Now().After(deadline) {
			t.Fatal("the rewrite did not end in 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	info := c.do("INFO", "persistence")
	for _, f := range []string{"\r\naof_last_bgrewrite_status:ok\r\n", "\r\naof_rewrites_consecutive_failures:0\r\n", "\r\naof_rewrite_scheduled:0\r\n"} {
		if !strings.Contains(info, f) {
			t.Errorf("INFO persistence after BGREWRITEAOF lacks %q:\n%s", f, info)
		}
	}
	if !regexp.MustCompile(`\r\naof_rewrites:[12]\r\n`).MatchString(info) {
		t.Errorf("INFO persistence: aof_rewrites not counted:\n%s", info)
	}
	if got := c.do("BGREWRITEAOF", "x"); got != "-ERR wrong number of arguments for 'bgrewriteaof' command\r\n" {
		t.Errorf("BGREWRITEAOF x: %q", got)
	}
}

// TestDirtyLikeRedis: rdb_changes_since_last_save moves as Redis's does
// for writes that change nothing (a BITFIELD setting a value again, a
// DEL of a missing key, an SADD of a member already there).
func TestDirtyLikeRedis(t *testing.T) {
	dirty := regexp.MustCompile(`rdb_changes_since_last_save:(\d+)`)
	run := func(t *testing.T, addr string) []string {
		c := dialRaw(t, addr)
		c.do("FLUSHALL")
		c.do("SAVE") // rekv on Badger saves; the counter starts again
		var out []string
		for _, cmd := range [][]string{{"BITFIELD", "k", "SET", "i5", "0", "0"}, {"BITFIELD", "k", "SET", "i5", "0", "0"},
			{"BITFIELD", "k", "SET", "i5", "0", "3"}, {"BITFIELD", "k", "INCRBY", "i5", "0", "0"},
			{"DEL", "nokey"}, {"SADD", "s", "a"}, {"SADD", "s", "a"}} {
			c.do(cmd...)
			out = append(out, dirty.FindStringSubmatch(c.do("INFO", "persistence"))[1])
		}
		return out
	}
	want := run(t, redisServer(t))
	n := startNode(t, "badger", nil)
	if got := run(t, n.Addr()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rdb_changes_since_last_save: rekv %v, redis %v", got, want)
	}
}
