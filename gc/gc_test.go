package gc_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	stdnet "net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/node"
)

// start runs a node whose timer-driven GC waits an hour unless interval
// says otherwise, so tests drive passes themselves.
func start(t testing.TB, interval time.Duration, beforePass func()) (*node.Node, *redis.Client) {
	return startCfg(t, testConfig(t, interval), beforePass)
}

// testConfig is start's configuration: Badger in a temporary directory,
// 4 shards, passes every interval of 1,000 entries, no cap, no sweep.
func testConfig(t testing.TB, interval time.Duration) conf.Config {
	cfg := conf.Default()
	cfg.Storage.Badger.Dir = t.TempDir()
	cfg.Storage.Badger.Durability = "no"
	cfg.Actors.Shards = 4
	cfg.GC.Interval = interval
	cfg.GC.BatchSize = 1000
	cfg.GC.MaxKeysPerSecond = 0
	cfg.GC.OrphanInterval = 0 // tests run sweep steps themselves
	return cfg
}

func startCfg(t testing.TB, cfg conf.Config, beforePass func()) (*node.Node, *redis.Client) {
	return startDriver(t, cfg, nil, beforePass)
}

// startDriver is startCfg on drv (nil: the store cfg opens). The node is
// closed at the test's end unless the test closed it (Close runs once).
func startDriver(t testing.TB, cfg conf.Config, drv drivers.Driver, beforePass func()) (*node.Node, *redis.Client) {
	l, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Server.Port = l.Addr().(*stdnet.TCPAddr).Port
	l.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var n *node.Node
	if drv == nil {
		n, err = node.Start(cfg, "", log)
	} else {
		n, err = node.StartWithDriver(cfg, "", drv, log)
	}
	if err != nil {
		t.Fatal(err)
	}
	if beforePass != nil {
		n.GC().SetBeforePass(beforePass)
	}
	t.Cleanup(func() { _ = n.Close(context.Background()) })
	c := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return n, c
}

// count counts the stored keys with a family prefix.
func count(t testing.TB, d drivers.Driver, prefix byte) int {
	tx, err := d.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	n := 0
	err = tx.Iterate([]byte{prefix}, []byte{prefix + 1}, drivers.IterOptions{}, func(_, _ []byte) (bool, error) {
		n++
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// drain runs passes until one does nothing, at most max passes.
func drain(t testing.TB, n *node.Node, max int) int {
	for i := 1; i <= max; i++ {
		did, err := n.GC().Pass(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if did == 0 {
			return i
		}
	}
	t.Fatalf("GC did not drain in %d passes", max)
	return 0
}

func TestExpiredKeysLeaveStorage(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	for i := 0; i < 1500; i++ {
		c.Set(ctx, fmt.Sprint("s", i), "v", 50*time.Millisecond)
	}
	for i := 0; i < 500; i++ {
		c.HSet(ctx, fmt.Sprint("h", i), "a", 1, "b", 2)
		c.PExpire(ctx, fmt.Sprint("h", i), 50*time.Millisecond)
	}
	c.Set(ctx, "keep", "v", time.Hour)
	time.Sleep(80 * time.Millisecond)
	// 2,000 expired keys at 1,000 per pass, then 1,000 dead hash members:
	// a handful of passes.
	passes := drain(t, n, 8)
	d := n.Driver()
	if m := count(t, d, codec.PrefixMeta); m != 1 {
		t.Fatalf("%d meta keys left after %d passes, want 1 (keep)", m, passes)
	}
	if tt := count(t, d, codec.PrefixTTL); tt != 1 {
		t.Fatalf("%d TTL entries left, want 1", tt)
	}
	if s, g := count(t, d, codec.PrefixData), count(t, d, codec.PrefixGarbage); s != 0 || g != 0 {
		t.Fatalf("sub-keys %d, garbage %d left", s, g)
	}
	if got := n.GCStats.KeysExpired.Load(); got != 2000 {
		t.Fatalf("keys expired = %d", got)
	}
	if v := c.Get(ctx, "keep").Val(); v != "v" {
		t.Fatal("live key lost")
	}
}

// TestSmallBatchesResumeAndFinish: with batches much smaller than the
// work, passes resume where the last stopped (the cursors over the TTL and
// garbage entries, a version's members split over chunks and passes) and
// still leave nothing behind, a key that became due after the cursor
// moved on included.
func TestSmallBatchesResumeAndFinish(t *testing.T) {
	cfg := testConfig(t, time.Hour)
	cfg.GC.BatchSize = 7
	n, c := startCfg(t, cfg, nil)
	ctx := context.Background()
	for i := 0; i < 100; i++ {
		c.Set(ctx, fmt.Sprint("s", i), "v", 30*time.Millisecond)
	}
	for i := 0; i < 30; i++ {
		args := make([]any, 0, 40)
		for j := 0; j < 20; j++ {
			args = append(args, fmt.Sprint("f", j), "v")
		}
		c.HSet(ctx, fmt.Sprint("h", i), args...)
		c.ZAdd(ctx, fmt.Sprint("z", i), redis.Z{Score: 1, Member: "a"}, redis.Z{Score: 2, Member: "b"})
		c.Del(ctx, fmt.Sprint("h", i), fmt.Sprint("z", i))
	}
	time.Sleep(50 * time.Millisecond)
	// Half way through: a pass has moved the cursors on.
	for i := 0; i < 5; i++ {
		if _, err := n.GC().Pass(ctx); err != nil {
			t.Fatal(err)
		}
	}
	c.Set(ctx, "late", "v", 20*time.Millisecond) // due after the passes above
	time.Sleep(40 * time.Millisecond)
	passes := drain(t, n, 1000)
	d := n.Driver()
	for _, p := range []byte{codec.PrefixMeta, codec.PrefixTTL, codec.PrefixData, codec.PrefixScore, codec.PrefixGarbage} {
		if got := count(t, d, p); got != 0 {
			t.Errorf("%d keys with prefix %q left after %d passes", got, p, passes)
		}
	}
	if got := n.GCStats.KeysExpired.Load(); got != 101 {
		t.Errorf("keys expired = %d, want 101", got)
	}
	if got := n.GCStats.VersionsReclaimed.Load(); got != 60 {
		t.Errorf("versions reclaimed = %d, want 60", got)
	}
	if got := n.GCStats.SubkeysDeleted.Load(); got != 30*20+30*4 {
		t.Errorf("sub-keys deleted = %d, want %d", got, 30*20+30*4)
	}
	if got := n.GCStats.LazyFreed.Load(); got != 0 {
		t.Errorf("lazy freed = %d, want 0: no value of more than %d members", got, store.LazyFreeThreshold)
	}
}

func TestDeletedCollectionIsReclaimedAndSuccessorUntouched(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	for i := 0; i < 100; i++ { // 100,000 members in 100 commands
		args := make([]any, 0, 2000)
		for j := 0; j < 1000; j++ {
			args = append(args, fmt.Sprint("f", i*1000+j), "v")
		}
		if err := c.HSet(ctx, "big", args...).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.HLen(ctx, "big").Val(); n != 100_000 {
		t.Fatalf("HLEN = %d", n)
	}
	c.Del(ctx, "big")
	c.HSet(ctx, "big", "new1", "x", "new2", "y") // the same name, a new version
	c.ZAdd(ctx, "z", redis.Z{Score: 1, Member: "a"}, redis.Z{Score: 2, Member: "b"})
	c.Set(ctx, "z", "overwritten", 0) // a dead zset with score entries
	d := n.Driver()
	passes := drain(t, n, 120)
	if s := count(t, d, codec.PrefixData); s != 2 {
		t.Fatalf("%d sub-keys left after %d passes, want the 2 of the new hash", s, passes)
	}
	if z, g := count(t, d, codec.PrefixScore), count(t, d, codec.PrefixGarbage); z != 0 || g != 0 {
		t.Fatalf("score entries %d, garbage %d left", z, g)
	}
	if m := c.HGetAll(ctx, "big").Val(); fmt.Sprint(m) != "map[new1:x new2:y]" {
		t.Fatalf("new hash = %v", m)
	}
	if got := n.GCStats.VersionsReclaimed.Load(); got != 2 {
		t.Fatalf("versions reclaimed = %d, want 2", got)
	}
	if got := n.GCStats.SubkeysDeleted.Load(); got != 100_000+4 {
		t.Fatalf("sub-keys deleted = %d, want 100,004", got)
	}
	if got := n.GCStats.LazyFreed.Load(); got != 1 {
		t.Fatalf("lazy freed = %d, want 1 (the big hash, over many chunks; not the 2-member zset)", got)
	}
}

// TestPanicRestartsAndFinishes injects a panic into the first timer pass;
// the supervisor restarts the collector, which then finishes from storage.
func TestPanicRestartsAndFinishes(t *testing.T) {
	var panicked atomic.Bool
	n, c := start(t, 10*time.Millisecond, func() {
		if panicked.CompareAndSwap(false, true) {
			panic("injected GC fault")
		}
	})
	ctx := context.Background()
	for i := 0; i < 300; i++ {
		c.Set(ctx, fmt.Sprint("k", i), "v", 20*time.Millisecond)
	}
	c.SAdd(ctx, "s", "a", "b", "c")
	c.Del(ctx, "s")
	deadline := time.Now().Add(20 * time.Second)
	d := n.Driver()
	for time.Now().Before(deadline) {
		if count(t, d, codec.PrefixMeta) == 0 && count(t, d, codec.PrefixData) == 0 && count(t, d, codec.PrefixGarbage) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !panicked.Load() || n.GCStats.Restarts.Load() < 1 {
		t.Fatalf("no injected panic/restart: panicked=%v restarts=%d", panicked.Load(), n.GCStats.Restarts.Load())
	}
	if m, s, g := count(t, d, codec.PrefixMeta), count(t, d, codec.PrefixData), count(t, d, codec.PrefixGarbage); m+s+g != 0 {
		t.Fatalf("after restart: meta %d, sub-keys %d, garbage %d left", m, s, g)
	}
	if n.GCStats.KeysExpired.Load() != 300 {
		t.Fatalf("keys expired = %d", n.GCStats.KeysExpired.Load())
	}
}

func TestInfoGCSection(t *testing.T) {
	_, c := start(t, time.Hour, nil)
	info := c.Info(context.Background(), "gc").Val()
	for _, f := range []string{"# Gc", "gc_keys_expired:0", "gc_versions_reclaimed:", "gc_subkeys_deleted:", "gc_backlog_versions:", "gc_keys_expired_per_sec:", "gc_subkeys_deleted_per_sec:"} {
		if !strings.Contains(info, f) {
			t.Fatalf("INFO gc lacks %q: %q", f, info)
		}
	}
}

// TestFlushDBIsO1AndReclaimedByGC flushes a db holding strings, TTL keys
// and a collection: the flush itself writes one record, the data vanishes
// at once for readers, keys written after it survive, and the GC then
// empties storage of the old records.
func TestFlushDBIsO1AndReclaimedByGC(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	for i := 0; i < 3000; i++ {
		c.Set(ctx, fmt.Sprint("k", i), "v", 0)
	}
	c.Set(ctx, "ttl", "v", time.Hour)
	c.SAdd(ctx, "set", "a", "b", "c")
	other := redis.NewClient(&redis.Options{Addr: n.Addr(), DB: 1})
	defer other.Close()
	other.Set(ctx, "db1", "stays", 0)
	if err := c.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if got := c.DBSize(ctx).Val(); got != 0 {
		t.Fatalf("DBSIZE after FLUSHDB = %d", got)
	}
	if c.Exists(ctx, "k1", "ttl", "set").Val() != 0 || c.SCard(ctx, "set").Val() != 0 {
		t.Fatal("flushed keys still visible")
	}
	c.Set(ctx, "k1", "after", 0) // written after the flush: must survive the GC
	drain(t, n, 20)
	d := n.Driver()
	if m := count(t, d, codec.PrefixMeta); m != 2 {
		t.Fatalf("%d metas left, want 2 (k1 after the flush, db1)", m)
	}
	if s, g, tt := count(t, d, codec.PrefixData), count(t, d, codec.PrefixGarbage), count(t, d, codec.PrefixTTL); s+g+tt != 0 {
		t.Fatalf("sub-keys %d, garbage %d, ttl %d left", s, g, tt)
	}
	if v := c.Get(ctx, "k1").Val(); v != "after" {
		t.Fatalf("k1 = %q", v)
	}
	if v := other.Get(ctx, "db1").Val(); v != "stays" {
		t.Fatalf("db 1 = %q", v)
	}
	// 3,000 strings + ttl + set, less k1, whose dead meta the SET after
	// the flush replaced.
	if got := n.GCStats.FlushedReclaimed.Load(); got != 3001 {
		t.Fatalf("flushed keys reclaimed = %d, want 3001", got)
	}
}

// TestOrphanSweepFindsLostVersions plants members of versions that have no
// meta and no garbage entry (as a crash mid-way could leave) next to a live
// hash, and checks the sweep queues only the orphans and the GC reclaims
// them.
func TestOrphanSweepFindsLostVersions(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	c.HSet(ctx, "live", "a", 1, "b", 2)
	c.ZAdd(ctx, "zlive", redis.Z{Score: 1, Member: "m"})
	d := n.Driver()
	tx, _ := d.Begin(true)
	for v := uint64(1); v <= 3; v++ {
		for i := 0; i < 10; i++ {
			_ = tx.Set(codec.AppendSubKey(nil, 0, []byte("lost"), v, fmt.Appendf(nil, "f%d", i)), nil)
		}
	}
	_ = tx.Set(codec.AppendScoreKey(nil, 2, []byte("zlost"), 9, 1.5, []byte("m")), nil)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	found := 0
	for i := 0; i < 5; i++ { // a few steps cover the 6 versions and wrap
		got, err := n.GC().OrphanStep()
		if err != nil {
			t.Fatal(err)
		}
		found += got
	}
	if found != 4 {
		t.Fatalf("orphans found = %d, want 4 (3 hash versions, 1 zset version)", found)
	}
	drain(t, n, 10)
	if s, z := count(t, d, codec.PrefixData), count(t, d, codec.PrefixScore); s != 3 || z != 1 {
		t.Fatalf("sub-keys %d, score entries %d left, want the live ones (3, 1)", s, z)
	}
	if m := c.HGetAll(ctx, "live").Val(); fmt.Sprint(m) != "map[a:1 b:2]" {
		t.Fatalf("live hash = %v", m)
	}
	if got, _ := n.GC().OrphanStep(); got != 0 {
		t.Fatalf("second sweep found %d", got)
	}
}

// TestSwappedDatabasesExpireAndReclaim: after SWAPDB the GC expires keys
// and reclaims flushed ones under their storage slot, announcing expiry in
// the database that holds them now.
func TestSwappedDatabasesExpireAndReclaim(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	one := redis.NewClient(&redis.Options{Addr: n.Addr(), DB: 1})
	defer one.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err())
	ps := c.Subscribe(ctx, "__keyevent@0__:expired", "__keyevent@1__:expired")
	defer ps.Close()
	if _, err := ps.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		must(one.Set(ctx, fmt.Sprint("t", i), "v", 30*time.Millisecond).Err())
		must(c.SAdd(ctx, fmt.Sprint("s", i), "a", "b").Err())
	}
	must(c.Do(ctx, "swapdb", 0, 1).Err())
	must(c.FlushDB(ctx).Err()) // db 0 now holds the t keys: flushed before they expire
	must(c.Do(ctx, "swapdb", 0, 1).Err())
	if got := c.DBSize(ctx).Val(); got != 100 {
		t.Fatalf("db 0 has %d keys, want the 100 sets back", got)
	}
	if got := one.DBSize(ctx).Val(); got != 0 {
		t.Fatalf("db 1 has %d keys, want 0 (flushed while it was db 0)", got)
	}
	must(c.Do(ctx, "swapdb", 0, 1).Err()) // db 1 is now stored under slot 0
	must(one.Set(ctx, "late", "v", 30*time.Millisecond).Err())
	time.Sleep(60 * time.Millisecond)
	drain(t, n, 20)
	select {
	case m := <-ps.Channel():
		if m.Channel != "__keyevent@1__:expired" || m.Payload != "late" {
			t.Fatalf("event %s %s, want late expired in db 1", m.Channel, m.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no expired event for late")
	}
	d := n.Driver()
	if m := count(t, d, codec.PrefixMeta); m != 100 {
		t.Fatalf("%d metas left, want the 100 sets", m)
	}
	if g, tt := count(t, d, codec.PrefixGarbage), count(t, d, codec.PrefixTTL); g+tt != 0 {
		t.Fatalf("garbage %d, ttl %d left", g, tt)
	}
	if got := n.GCStats.FlushedReclaimed.Load(); got != 100 {
		t.Fatalf("flushed keys reclaimed = %d, want 100 (the t keys)", got)
	}
	if got := one.SCard(ctx, "s7").Val(); got != 2 {
		t.Fatalf("SCARD s7 = %d", got)
	}
}

// TestSweepsAreNoAccess checks the GC's removals leave keys' LFU counters
// alone, as Redis's background expiry does. Each key is written again
// between the walk that found its old state (flushed; expiring) and the
// run that removes it, which then reads the new, live key: no access.
func TestSweepsAreNoAccess(t *testing.T) {
	n, c := start(t, time.Hour, nil)
	ctx := context.Background()
	for _, kv := range [][2]string{{"maxmemory-policy", "allkeys-lfu"}, {"lfu-decay-time", "0"}} {
		if err := c.ConfigSet(ctx, kv[0], kv[1]).Err(); err != nil {
			t.Fatal(err)
		}
	}
	c.Set(ctx, "flushed", "old", 0)
	if err := c.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	c.Set(ctx, "expiring", "old", time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	// A pass expires, then sweeps flushed keys: the first run finds
	// "expiring", the second "flushed". Each is written once, a new key
	// (a SET over an expired or flushed key creates it): counter 5.
	order := []string{"expiring", "flushed"}
	var runs atomic.Int32
	n.GC().SetBeforeRun(func() {
		if i := int(runs.Add(1)) - 1; i < len(order) {
			c.Set(ctx, order[i], "new", 0)
		}
	})
	drain(t, n, 20)
	if got := runs.Load(); got != 2 {
		t.Fatalf("the GC ran %d removals, want 2 (the expiry, the flush sweep)", got)
	}
	for _, k := range []string{"flushed", "expiring"} {
		if got := c.ObjectFreq(ctx, k).Val(); got != 5 {
			t.Errorf("OBJECT FREQ %s after the GC read it = %d, want 5 (no access)", k, got)
		}
	}
}

// TestOrphanSweepLeavesPreWrites: chunks written ahead of their
// transaction (drivers.PreWriter) have no meta yet; the sweep leaves them
// while they are pending, and finds them once settled without a commit
// (what a crash leaves: the next process has nothing pending).
func TestOrphanSweepLeavesPreWrites(t *testing.T) {
	n, _ := start(t, time.Hour, nil)
	d := n.Driver()
	pw, ok := d.(drivers.PreWriter)
	if !ok {
		t.Fatalf("%T does not pre-write", d)
	}
	prefix := codec.SubKeyPrefix(0, []byte("big"), 77)
	err := pw.PreWrite(prefix, func(yield func(k, v []byte) error) error {
		for i := uint64(0); i < 3; i++ {
			if err := yield(append(bytes.Clone(prefix), codec.ChunkField(i)...), []byte("chunk")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if got, err := n.GC().OrphanStep(); err != nil || got != 0 {
			t.Fatalf("sweep while pending: %d orphans, %v", got, err)
		}
	}
	pw.Settle(prefix)
	found := 0
	for i := 0; i < 3; i++ {
		got, err := n.GC().OrphanStep()
		if err != nil {
			t.Fatal(err)
		}
		found += got
	}
	if found != 1 {
		t.Fatalf("orphans found once settled = %d, want 1", found)
	}
	drain(t, n, 10)
	if s := count(t, d, codec.PrefixData); s != 0 {
		t.Fatalf("%d chunks left after the GC", s)
	}
}
