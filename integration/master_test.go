package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// The master side of replication: Debian's redis-server and a second
// rekv follow a rekv master (its writes streamed in effect form), with a
// dropped link and a partial resync, WAIT and min-replicas-to-write, and
// a hot standby promoted after a kill -9 of its master. The switches of
// repl_test.go apply (REKVTEST_REPL_SECONDS, REKVTEST_REPL_RATE).

func replSeconds() int {
	if s, err := strconv.Atoi(os.Getenv("REKVTEST_REPL_SECONDS")); err == nil && s > 0 {
		return s
	}
	return 4
}

func TestRedisReplicaOfRekv(t *testing.T) {
	ctx := context.Background()
	n := startNode(t, "badger", nil)
	m := newClient(t, n.Addr(), 2)
	fillMaster(t, ctx, n.Addr(), 10000)

	replica := redisServer(t, "--repl-diskless-load", "disabled")
	r := newClient(t, replica, 2)
	host, port, _ := strings.Cut(n.Addr(), ":")
	t0 := time.Now()
	must(t, r.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, m, r)
	t.Logf("full sync of %d keys to redis-server: %v", m.DBSize(ctx).Val(), time.Since(t0).Round(time.Millisecond))
	compareServers(t, ctx, n.Addr(), replica)
	info := infoMap(t, ctx, m, "replication")
	if info["connected_slaves"] != "1" || !strings.Contains(info["slave0"], "state=online") {
		t.Fatalf("INFO replication on the master: %v", info)
	}

	secs := replSeconds()
	ops := mixedWrites(t, ctx, n.Addr(), time.Duration(secs)*time.Second/2, func() {
		// Halfway: the replica drops its link; it continues where it
		// was (+CONTINUE), with no second full sync.
		must(t, r.Do(ctx, "client", "kill", "type", "master").Err())
	})
	ops += effectWrites(t, ctx, n.Addr(), time.Duration(secs)*time.Second/2)
	waitCaughtUp(t, ctx, m, r)
	t.Logf("%d writes in %d s applied by redis-server", ops, secs)
	stats := infoMap(t, ctx, m, "stats")
	if stats["sync_full"] != "1" || stats["sync_partial_ok"] != "1" {
		t.Fatalf("rekv saw sync_full %s, sync_partial_ok %s; want one of each", stats["sync_full"], stats["sync_partial_ok"])
	}
	compareServers(t, ctx, n.Addr(), replica)

	// A PUBLISH or SPUBLISH on rekv reaches the replica's subscribers, as
	// Redis streams it.
	subscriberHears(t, ctx, m, r, "publish")
	subscriberHears(t, ctx, m, r, "spublish")

	// WAIT counts the replica once it acknowledged; min-replicas-to-write
	// refuses writes without enough of them.
	must(t, m.Set(ctx, "waited", "1", 0).Err())
	if got := m.Do(ctx, "wait", 1, 5000).Val(); fmt.Sprint(got) != "1" {
		t.Fatalf("WAIT 1: %v", got)
	}
	if got := m.Do(ctx, "wait", 2, 200).Val(); fmt.Sprint(got) != "1" {
		t.Fatalf("WAIT 2 200 with one replica: %v", got)
	}
	must(t, m.ConfigSet(ctx, "min-replicas-to-write", "2").Err())
	if err := m.Set(ctx, "refused", "1", 0).Err(); err == nil || err.Error() != "NOREPLICAS Not enough good replicas to write." {
		t.Fatalf("SET with min-replicas-to-write 2: %v", err)
	}
	must(t, m.ConfigSet(ctx, "min-replicas-to-write", "1").Err())
	must(t, m.Set(ctx, "allowed", "1", 0).Err())
	must(t, m.ConfigSet(ctx, "min-replicas-to-write", "0").Err())
}

// effectWrites runs, for d, the writes whose effect a replica cannot
// compute from the command line (random picks, this node's clock, the
// IDs and trims it chooses, blocking pops): what rekv streams in effect
// form. It returns how many it sent.
func effectWrites(t *testing.T, ctx context.Context, addr string, d time.Duration) int {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	must(t, c.XGroupCreateMkStream(ctx, "fx:x", "g", "0").Err())
	must(t, c.RPush(ctx, "fx:src", "a", "b", "c").Err())
	payload, err := c.Dump(ctx, "fx:src").Result()
	must(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	start := time.Now()
	ops := 0
	for time.Since(start) < d && ops < 1_000_000 {
		p := c.Pipeline()
		for range 40 {
			i := rng.IntN(500)
			k := fmt.Sprintf("fx:%d", i)
			switch rng.IntN(16) {
			case 0:
				p.SAdd(ctx, "fx:s", i, i+1, i+2, i+3, i+4, i+5)
			case 1:
				p.SPopN(ctx, "fx:s", 2)
			case 2:
				p.IncrByFloat(ctx, "fx:f", 1.0/3)
			case 3:
				p.HIncrByFloat(ctx, "fx:hf", "x", 0.1)
			case 4:
				p.XAdd(ctx, &redis.XAddArgs{Stream: "fx:x", MaxLen: 300, Approx: true, Values: []any{"i", i}})
			case 5:
				p.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c" + strconv.Itoa(i%3), Streams: []string{"fx:x", ">"}, Count: 3, Block: -1})
			case 6:
				p.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: "fx:x", Group: "g", Consumer: "c9", Start: "0", Count: 2})
			case 7:
				p.SetEx(ctx, k, i, time.Duration(600+i)*time.Second)
			case 8:
				p.Set(ctx, k, i, 0)
				p.Expire(ctx, k, time.Duration(700+i)*time.Second)
			case 9:
				p.GetEx(ctx, k, time.Duration(800+i)*time.Second)
			case 10:
				p.RPush(ctx, "fx:l", i)
				p.BLPop(ctx, time.Second, "fx:l")
			case 11:
				p.ZAdd(ctx, "fx:z", redis.Z{Score: float64(i), Member: i})
				p.BZPopMin(ctx, time.Second, "fx:z")
			case 12:
				p.RPush(ctx, "fx:l2", i, i+1)
				p.BLMove(ctx, "fx:l2", "fx:l3", "LEFT", "RIGHT", time.Second)
			case 13:
				p.Eval(ctx, "local m = redis.call('spop', KEYS[1]); if m then redis.call('rpush', KEYS[2], m) end; return m", []string{"fx:s", "fx:popped"})
			case 14:
				p.XTrimMaxLenApprox(ctx, "fx:x", 200, 0)
			case 15:
				p.RestoreReplace(ctx, "fx:r"+strconv.Itoa(i%5), time.Duration(900+i)*time.Second, payload)
			}
			ops++
		}
		if _, err := p.Exec(ctx); err != nil && err != redis.Nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return ops
}

// TestRekvStandby: a rekv replica of a rekv master (a separate process,
// on Badger with durability always) takes over after a kill -9 of the
// master: every write WAIT 1 acknowledged is on it after REPLICAOF NO ONE.
func TestRekvStandby(t *testing.T) {
	ctx := context.Background()
	cmd, maddr := startChild(t, t.TempDir(), "always")
	m := newClient(t, maddr, 2)
	fillMaster(t, ctx, maddr, 2000)

	n := startNode(t, "badger", nil)
	r := newClient(t, n.Addr(), 2)
	host, port, _ := strings.Cut(maddr, ":")
	must(t, r.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, m, r)
	compareServers(t, ctx, maddr, n.Addr())

	// Writers: batches of writes, each batch then WAIT 1; what WAIT
	// answered 1 for is acknowledged by the replica.
	var mu sync.Mutex
	acked := map[string]string{}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := redis.NewClient(&redis.Options{Addr: maddr, Protocol: 2, MaxRetries: -1})
			defer c.Close()
			for b := 0; b < 100_000; b++ {
				select {
				case <-stop:
					return
				default:
				}
				p := c.Pipeline()
				batch := map[string]string{}
				for i := range 20 {
					k := fmt.Sprintf("sb:%d:%d:%d", w, b, i)
					v := strconv.Itoa(b*100 + i)
					p.Set(ctx, k, v, 0)
					batch[k] = v
				}
				p.Incr(ctx, fmt.Sprintf("sb:count:%d", w))
				wait := p.Do(ctx, "wait", 1, 2000)
				if _, err := p.Exec(ctx); err != nil {
					return // the master is gone
				}
				if fmt.Sprint(wait.Val()) == "1" {
					mu.Lock()
					for k, v := range batch {
						acked[k] = v
					}
					acked[fmt.Sprintf("sb:count:%d", w)] = strconv.Itoa(b + 1)
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(time.Duration(replSeconds()) * time.Second / 2)
	must(t, cmd.Process.Kill()) // kill -9, in the middle of the writes
	_ = cmd.Wait()
	close(stop)
	wg.Wait()

	must(t, r.Do(ctx, "replicaof", "no", "one").Err())
	mu.Lock()
	defer mu.Unlock()
	if len(acked) < 100 {
		t.Fatalf("only %d writes acknowledged by WAIT 1 before the kill", len(acked))
	}
	lost := 0
	for k, v := range acked {
		got, err := r.Get(ctx, k).Result()
		if strings.HasPrefix(k, "sb:count:") {
			// Later increments may have reached the replica too.
			if g, _ := strconv.Atoi(got); err != nil || g < atoi(t, v) {
				t.Errorf("%s: %q (%v) on the promoted replica, want at least %s", k, got, err, v)
				lost++
			}
			continue
		}
		if err != nil || got != v {
			lost++
			if lost < 5 {
				t.Errorf("%s: %q (%v) on the promoted replica, want %q", k, got, err, v)
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d acknowledged writes lost", lost, len(acked))
	}
	t.Logf("%d writes acknowledged by WAIT 1, all on the promoted replica", len(acked))
	must(t, r.Set(ctx, "after", "1", 0).Err())
}

// WAIT in a pipeline covers every write before it, though those may
// still be running on busy shards when the event loop reads WAIT: once
// WAIT answers 1, the replica has each of them. WAIT once took its
// offset before they reached the stream; another client's WAIT then got
// an acknowledgement past that offset and answered this one too early
// (TestRekvStandby lost 7 acknowledged writes of 15,644).
func TestWaitCoversThePipeline(t *testing.T) {
	ctx := context.Background()
	// Durability always, as TestRekvStandby's master: commits wait for
	// fsync, so shards are busy and pipelines go to them.
	m := startNode(t, "badger", func(c *conf.Config) { c.Storage.Badger.Durability = "always" })
	r := startNode(t, "badger", nil)
	mc, rc := newClient(t, m.Addr(), 2), newClient(t, r.Addr(), 2)
	host, port, _ := strings.Cut(m.Addr(), ":")
	must(t, rc.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, mc, rc)
	var wg sync.WaitGroup
	var rounds atomic.Int64
	deadline := time.Now().Add(4 * time.Second)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := redis.NewClient(&redis.Options{Addr: m.Addr(), Protocol: 2})
			defer c.Close()
			for b := 0; b < 10_000 && time.Now().Before(deadline); b++ {
				p := c.Pipeline()
				for i := range 20 {
					p.Set(ctx, fmt.Sprintf("wp:%d:%d:%d", w, b, i), i, 0)
				}
				wait := p.Do(ctx, "wait", 1, 5000)
				aof := p.Do(ctx, "waitaof", 1, 0, 0)
				if _, err := p.Exec(ctx); err != nil {
					t.Error(err)
					return
				}
				if fmt.Sprint(wait.Val()) != "1" || fmt.Sprint(aof.Val()) != "[1 0]" {
					t.Errorf("WAIT %v, WAITAOF %v", wait.Val(), aof.Val())
					return
				}
				for i := range 20 {
					k := fmt.Sprintf("wp:%d:%d:%d", w, b, i)
					if got, err := rc.Get(ctx, k).Result(); err != nil || got != strconv.Itoa(i) {
						t.Errorf("%s is %q (%v) on the replica after WAIT answered 1", k, got, err)
						return
					}
				}
				rounds.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d pipelines acknowledged by WAIT 1, each whole on the replica", rounds.Load())
}

// FAILOVER hands the master role to a rekv replica with no full sync on
// either side: writes pause until the replica has them all, then the old
// master follows it.
func TestRekvFailover(t *testing.T) {
	ctx := context.Background()
	a, b := startNode(t, "badger", nil), startNode(t, "badger", nil)
	ca, cb := newClient(t, a.Addr(), 2), newClient(t, b.Addr(), 2)
	for i := range 2000 {
		must(t, ca.Set(ctx, fmt.Sprintf("f:%d", i), i, 0).Err())
	}
	if err := ca.Do(ctx, "failover").Err(); err == nil || err.Error() != "ERR FAILOVER requires connected replicas." {
		t.Fatalf("FAILOVER without replicas: %v", err)
	}
	host, port, _ := strings.Cut(a.Addr(), ":")
	must(t, cb.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, ca, cb)
	sameFieldTTLs(t, ctx, ca, cb)
	subscriberHears(t, ctx, ca, cb, "publish")
	subscriberHears(t, ctx, ca, cb, "spublish")
	notifiedOnce(t, ctx, ca, cb)
	bhost, bport, _ := strings.Cut(b.Addr(), ":")
	if err := ca.Do(ctx, "failover", "to", bhost, "1").Err(); err == nil || err.Error() != "ERR FAILOVER target HOST and PORT is not a replica." {
		t.Fatalf("FAILOVER to a stranger: %v", err)
	}
	// Writes go on while the failover starts: none acknowledged is lost.
	done := make(chan int)
	go func() {
		c := redis.NewClient(&redis.Options{Addr: a.Addr(), Protocol: 2, MaxRetries: -1})
		defer c.Close()
		n := 0
		for ; n < 100_000; n++ {
			if err := c.Set(ctx, fmt.Sprintf("w:%d", n), n, 0).Err(); err != nil {
				break // READONLY once the node follows the new master
			}
		}
		done <- n
	}()
	time.Sleep(200 * time.Millisecond)
	must(t, ca.Do(ctx, "failover", "to", bhost, bport, "timeout", "10000").Err())
	deadline := time.Now().Add(30 * time.Second)
	for {
		ia, ib := infoMap(t, ctx, ca, "replication"), infoMap(t, ctx, cb, "replication")
		if ia["role"] == "slave" && ia["master_link_status"] == "up" && ib["role"] == "master" && ia["master_failover_state"] == "no-failover" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failover: A %v, B %v", ia, ib)
		}
		time.Sleep(20 * time.Millisecond)
	}
	written := <-done
	for i := range written {
		if got, err := cb.Get(ctx, fmt.Sprintf("w:%d", i)).Result(); err != nil || got != strconv.Itoa(i) {
			t.Fatalf("w:%d (of %d acknowledged) on the new master: %q %v", i, written, got, err)
		}
	}
	if st := infoMap(t, ctx, cb, "stats"); st["sync_full"] != "0" || st["sync_partial_ok"] != "1" {
		t.Fatalf("the new master served sync_full %s, sync_partial_ok %s: want a partial resync only", st["sync_full"], st["sync_partial_ok"])
	}
	must(t, cb.Set(ctx, "after", "failover", 0).Err())
	waitCaughtUp(t, ctx, cb, ca)
	if got := ca.Get(ctx, "after").Val(); got != "failover" {
		t.Fatalf("the old master did not follow the new one: %q", got)
	}
	if err := ca.Set(ctx, "x", "1", 0).Err(); err == nil || !strings.HasPrefix(err.Error(), "READONLY") {
		t.Fatalf("a write on the old master: %v", err)
	}
	t.Logf("failover after %d writes, none lost", written)
}

// subscriberHears checks that a PUBLISH or SPUBLISH (how) on master m
// reaches a subscriber of replica r (SUBSCRIBE or SSUBSCRIBE), carried by
// the replication stream as Redis 7.0 carries it outside cluster mode.
func subscriberHears(t *testing.T, ctx context.Context, m, r *redis.Client, how string) {
	t.Helper()
	channel := "chan-" + how
	var sub *redis.PubSub
	if how == "spublish" {
		sub = r.SSubscribe(ctx, channel)
	} else {
		sub = r.Subscribe(ctx, channel)
	}
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	must(t, m.Do(ctx, how, channel, "hello").Err())
	select {
	case msg := <-sub.Channel():
		if msg.Channel != channel || msg.Payload != "hello" {
			t.Fatalf("%s: the replica's subscriber got %q on %q", how, msg.Payload, msg.Channel)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the replica's subscriber got nothing", how)
	}
}

// notifiedOnce: a keyspace notification of a master's write reaches the
// replica's subscriber once, raised by the replica as it applies the
// write; the master does not stream its own notifications (they were,
// as PUBLISH, and the subscriber heard each twice).
func notifiedOnce(t *testing.T, ctx context.Context, m, r *redis.Client) {
	t.Helper()
	for _, c := range []*redis.Client{m, r} {
		must(t, c.ConfigSet(ctx, "notify-keyspace-events", "E$").Err())
		defer c.ConfigSet(ctx, "notify-keyspace-events", "")
	}
	sub := r.Subscribe(ctx, "__keyevent@0__:set")
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	// One after the other on the master, so in order in its stream; the
	// replica gets several in one read and its keys sit on all shards.
	const n = 300
	var want []string
	for i := range n {
		k := fmt.Sprintf("notified%d", i)
		must(t, m.Set(ctx, k, "v", 0).Err())
		want = append(want, k)
	}
	var got []string
	for len(got) < n {
		select {
		case msg := <-sub.Channel():
			got = append(got, msg.Payload)
		case <-time.After(10 * time.Second):
			t.Fatalf("the replica's subscriber got %d events, then nothing", len(got))
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("the replica's subscriber got %q at %d, want each key's event once, in the master's order", got[i:min(i+5, n)], i)
		}
	}
}

// sameFieldTTLs sets relative hash-field expiries on master m and checks
// that replica r holds the same absolute times (streamed as HPEXPIREAT,
// not as the relative command a replica would apply later).
func sameFieldTTLs(t *testing.T, ctx context.Context, m, r *redis.Client) {
	t.Helper()
	const n = 20
	for i := range n {
		f := fmt.Sprintf("f%d", i)
		switch i % 3 {
		case 0:
			must(t, m.Do(ctx, "hset", "hfe", f, i).Err())
			must(t, m.Do(ctx, "hexpire", "hfe", 100+i, "fields", 1, f).Err())
		case 1:
			must(t, m.Do(ctx, "hsetex", "hfe", "px", 100000+i, "fields", 1, f, i).Err())
		default:
			must(t, m.Do(ctx, "hset", "hfe", f, i).Err())
			must(t, m.Do(ctx, "hgetex", "hfe", "ex", 100+i, "fields", 1, f).Err())
		}
		time.Sleep(time.Millisecond)
	}
	waitCaughtUp(t, ctx, m, r)
	for i := range n {
		f := fmt.Sprintf("f%d", i)
		want := m.Do(ctx, "hpexpiretime", "hfe", "fields", 1, f).Val()
		if got := r.Do(ctx, "hpexpiretime", "hfe", "fields", 1, f).Val(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("field %s expires at %v on the replica, %v on the master", f, got, want)
		}
	}
}

// FAILOVER to a redis-server replica (Redis's side of PSYNC ... FAILOVER),
// after an ABORT while the replica was busy.
func TestFailoverToRedis(t *testing.T) {
	ctx := context.Background()
	n := startNode(t, "badger", nil)
	m := newClient(t, n.Addr(), 2)
	for i := range 500 {
		must(t, m.Set(ctx, fmt.Sprintf("r:%d", i), i, 0).Err())
	}
	replica := redisServer(t, "--enable-debug-command", "yes")
	r := newClient(t, replica, 2)
	host, port, _ := strings.Cut(n.Addr(), ":")
	must(t, r.Do(ctx, "replicaof", host, port).Err())
	waitCaughtUp(t, ctx, m, r)
	rhost, rport, _ := strings.Cut(replica, ":")

	// The replica is stuck: the failover waits, writes pause, ABORT ends it.
	go func() {
		_ = redis.NewClient(&redis.Options{Addr: replica, Protocol: 2}).Do(ctx, "debug", "sleep", "2").Err()
	}()
	time.Sleep(100 * time.Millisecond)
	must(t, m.Set(ctx, "before", "1", 0).Err())
	must(t, m.Do(ctx, "failover", "to", rhost, rport).Err())
	if got := infoMap(t, ctx, m, "replication")["master_failover_state"]; got != "waiting-for-sync" {
		t.Fatalf("master_failover_state %q while the replica sleeps", got)
	}
	if err := m.Do(ctx, "failover").Err(); err == nil || err.Error() != "ERR FAILOVER already in progress." {
		t.Fatalf("a second FAILOVER: %v", err)
	}
	must(t, m.Do(ctx, "failover", "abort").Err())
	must(t, m.Set(ctx, "after-abort", "1", 0).Err()) // writes go on
	if got := infoMap(t, ctx, m, "replication"); got["role"] != "master" || got["master_failover_state"] != "no-failover" {
		t.Fatalf("after ABORT: %v", got)
	}
	time.Sleep(2 * time.Second) // the replica wakes up
	waitCaughtUp(t, ctx, m, r)

	must(t, m.Do(ctx, "failover", "to", rhost, rport, "timeout", "10000").Err())
	deadline := time.Now().Add(30 * time.Second)
	for {
		im, ir := infoMap(t, ctx, m, "replication"), infoMap(t, ctx, r, "replication")
		if im["role"] == "slave" && im["master_link_status"] == "up" && ir["role"] == "master" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failover to redis-server: rekv %v, redis %v", im, ir)
		}
		time.Sleep(20 * time.Millisecond)
	}
	must(t, r.Set(ctx, "on-redis", "1", 0).Err())
	waitCaughtUp(t, ctx, r, m)
	compareServers(t, ctx, replica, n.Addr())
	if st := infoMap(t, ctx, r, "stats"); st["sync_full"] != "0" {
		t.Fatalf("redis-server served a full sync to its old master: %v", st["sync_full"])
	}
}

// After a partial resync the master's stream goes on in the database it
// had selected (no SELECT after +CONTINUE): the replica must remember it.
// The master is rekv, whose stream does not SELECT again; the link is cut
// from its side (CLIENT KILL of the replica's connection).
func TestReplicaResyncKeepsDB(t *testing.T) {
	ctx := context.Background()
	a, b := startNode(t, "badger", nil), startNode(t, "badger", nil)
	m, r := newClient(t, a.Addr(), 2), newClient(t, b.Addr(), 2)
	host, port, _ := strings.Cut(a.Addr(), ":")
	must(t, r.Do(ctx, "replicaof", host, port).Err())
	m1 := redis.NewClient(&redis.Options{Addr: a.Addr(), DB: 3, Protocol: 2})
	defer m1.Close()
	must(t, m1.Set(ctx, "before", "1", 0).Err()) // the stream SELECTs 3
	waitCaughtUp(t, ctx, m, r)
	killed := false
	for _, line := range strings.Split(m.ClientList(ctx).Val(), "\n") {
		if strings.Contains(line, "cmd=psync") {
			for _, f := range strings.Fields(line) {
				if addr, ok := strings.CutPrefix(f, "addr="); ok {
					must(t, m.Do(ctx, "client", "kill", "addr", addr).Err())
					killed = true
				}
			}
		}
	}
	if !killed {
		t.Fatalf("no replica link in CLIENT LIST: %s", m.ClientList(ctx).Val())
	}
	must(t, m1.Set(ctx, "after", "1", 0).Err()) // still in 3: no SELECT
	time.Sleep(100 * time.Millisecond)
	waitCaughtUp(t, ctx, m, r)
	if st := infoMap(t, ctx, m, "stats"); st["sync_partial_ok"] != "1" {
		t.Fatalf("sync_partial_ok %s: the test needs a partial resync", st["sync_partial_ok"])
	}
	r3 := redis.NewClient(&redis.Options{Addr: b.Addr(), DB: 3, Protocol: 2})
	defer r3.Close()
	if got := r3.Exists(ctx, "before", "after").Val(); got != 2 {
		t.Fatalf("db 3 of the replica holds %d of the 2 keys", got)
	}
	if got := r.DBSize(ctx).Val(); got != 0 {
		t.Fatalf("db 0 of the replica holds %d keys", got)
	}
}

// TestWaitAnswersPromptly: WAIT 1 after a write returns 1 as soon as the
// replica has the write, with a rekv replica as with a redis-server one:
// the replica answers the master's REPLCONF GETACK with everything it
// received (not the offset of its last periodic ACK, a second old).
func TestWaitAnswersPromptly(t *testing.T) {
	ctx := context.Background()
	// p99 bound: 50 ms; the race detector on a loaded 2-core machine
	// slows every hop 5-10x. A replica that acks only once a second
	// misses either by far.
	bound := 50 * time.Millisecond
	if raceEnabled {
		bound = 250 * time.Millisecond
	}
	for _, kind := range []string{"rekv", "redis"} {
		t.Run(kind, func(t *testing.T) {
			n := startNode(t, "badger", nil)
			m := newClient(t, n.Addr(), 2)
			var raddr string
			if kind == "rekv" {
				raddr = startNode(t, "badger", nil).Addr()
			} else {
				raddr = redisServer(t)
			}
			r := newClient(t, raddr, 2)
			host, port, _ := strings.Cut(n.Addr(), ":")
			must(t, r.Do(ctx, "replicaof", host, port).Err())
			must(t, m.Set(ctx, "w:first", "1", 0).Err())
			waitCaughtUp(t, ctx, m, r)

			const calls = 1000
			lat := make([]time.Duration, 0, calls)
			zeros := 0
			for i := range calls {
				must(t, m.Set(ctx, "w:"+strconv.Itoa(i%50), i, 0).Err())
				t0 := time.Now()
				got, err := m.Do(ctx, "wait", 1, 1000).Int64()
				lat = append(lat, time.Since(t0))
				must(t, err)
				if got != 1 {
					zeros++
				}
			}
			slices.Sort(lat)
			p50, p99 := lat[calls/2], lat[calls*99/100]
			t.Logf("WAIT 1 1000 after a SET, %d calls, %s replica: p50 %v, p99 %v, max %v",
				calls, kind, p50, p99, lat[calls-1])
			if zeros > 0 {
				t.Errorf("WAIT returned 0 in %d of %d calls", zeros, calls)
			}
			if p99 > bound {
				t.Errorf("WAIT's p99 is %v, want at most %v", p99, bound)
			}
			// Each write WAIT counted is on the replica.
			for i := range 50 {
				k := "w:" + strconv.Itoa(i)
				if got, want := r.Get(ctx, k).Val(), m.Get(ctx, k).Val(); got != want {
					t.Fatalf("%s on the replica = %q, master %q", k, got, want)
				}
			}
		})
	}
}

// TestRedisReplicaSyncsUnderWrites: a redis-server replica completes its
// full sync from a rekv master taking writes, ten times in a row (a new
// replica each time), and holds the master's data afterwards. Redis's
// replica finds the end mark of a streamed RDB only as the last bytes of
// a read: the master sends the stream only after the replica's first ACK,
// as Redis's master does.
func TestRedisReplicaSyncsUnderWrites(t *testing.T) {
	ctx := context.Background()
	n := startNode(t, "badger", nil)
	m := newClient(t, n.Addr(), 2)
	fillMaster(t, ctx, n.Addr(), 2000)
	host, port, _ := strings.Cut(n.Addr(), ":")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := redis.NewClient(&redis.Options{Addr: n.Addr(), Protocol: 2})
			defer c.Close()
			for i := 0; i < 10_000_000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := c.Set(ctx, fmt.Sprintf("uw:%d:%d", w, i%500), i, 0).Err(); err != nil {
					t.Errorf("SET: %v", err)
					return
				}
				writes.Add(1)
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()

	for round := range 10 {
		r := newClient(t, redisServer(t), 2)
		t0 := time.Now()
		must(t, r.Do(ctx, "replicaof", host, port).Err())
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if infoMap(t, ctx, r, "replication")["master_link_status"] == "up" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the replica's sync did not complete in 20 s under writes: %v", round, infoMap(t, ctx, r, "replication"))
			}
		}
		t.Logf("round %d: synced in %v, %d writes so far", round, time.Since(t0).Round(time.Millisecond), writes.Load())
		if round == 9 {
			close(stop)
			wg.Wait()
			stop = make(chan struct{})
			waitCaughtUp(t, ctx, m, r)
			compareServers(t, ctx, n.Addr(), r.Options().Addr)
		}
		must(t, r.Do(ctx, "replicaof", "no", "one").Err())
	}
}
