package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// notifyScript runs on a connection while another connection of the same
// server listens to every keyspace and keyevent channel.
const notifyScript = `SET a 1
SET a 2 EX 100
EXPIRE a 200
PERSIST a
SETEX b 100 x
SETNX a 3
SETNX c 3
MSET a 1 d 4
GETSET a 5
GETDEL a
INCR n
INCRBY n 5
DECR n
INCRBYFLOAT n 1.5
APPEND s x
SETRANGE s 3 y
DEL b c d n s nokey
SET e v
EXPIRE e -1
SET f v
RENAME f g
LPUSH l 1 2
RPUSH l 3
LPOP l
RPOP l 2
RPUSH src x y
LMOVE src dst LEFT RIGHT
RPOPLPUSH src dst
LSET dst 0 z
LREM dst 0 z
LTRIM dst 1 0
HSET h f v g w
HINCRBY h n 1
HDEL h f g n
SADD s1 a b
SREM s1 a
SPOP s1
SADD s2 a
SMOVE s2 s3 a
ZADD z 1 a 2 b
ZINCRBY z 1 a
ZREM z a
ZPOPMIN z
SETBIT bits 7 1
SETBIT bits 7 1
BITFIELD bf INCRBY u8 0 1
BITFIELD bf2 OVERFLOW FAIL INCRBY u8 0 300
BITOP OR bo bits bf
BITOP AND bo missing
ZADD zm 1 a 2 b
ZMPOP 1 zm MAX
BZPOPMIN zm 0
SETRANGE big 10000 x
APPEND big y
HSETNX h2 f v
SADD s1 x
SINTERSTORE s4 s1 s1
ZUNIONSTORE z5 1 zm
ZADD zz 1 x
ZUNIONSTORE z5 1 zz
SADD s1 q
SINTERSTORE s4 s1
RPUSH sl 2 1
SORT sl STORE sdst
SORT sl STORE sdst
SORT nokey STORE sdst
COPY s1 c1
COPY s1 c1 REPLACE
COPY s1 c1 DB 2
MOVE c1 3
MOVE s1 2
FLUSHALL`

// TestKeyspaceNotificationsMatchRedis compares the notifications of
// notifyScript on rekv and on redis-server, message by message.
func TestKeyspaceNotificationsMatchRedis(t *testing.T) {
	for _, flags := range []string{"KEA", "KEAn", "En"} {
		t.Run(flags, func(t *testing.T) { notificationsMatchRedis(t, flags) })
	}
}

func notificationsMatchRedis(t *testing.T, flags string) {
	redisAddr := redisServer(t)
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.NotifyKeyspaceEvents = "KEA" })
	collect := func(addr string) []string {
		cmd, sub := dialRaw(t, addr), dialRaw(t, addr)
		cmd.do("FLUSHALL")
		cmd.do("CONFIG", "SET", "notify-keyspace-events", flags)
		sub.do("PSUBSCRIBE", "__key*@*__:*")
		for _, line := range strings.Split(notifyScript, "\n") {
			cmd.do(strings.Fields(line)...)
		}
		cmd.do("CONFIG", "SET", "notify-keyspace-events", "")
		var got []string
		_ = sub.conn.SetReadDeadline(time.Now().Add(time.Second))
		for {
			m, err := readReply(sub.r)
			if err != nil {
				break
			}
			got = append(got, m)
		}
		return got
	}
	want, got := collect(redisAddr), collect(n.Addr())
	if strings.Join(want, "") != strings.Join(got, "") {
		short := func(ms []string) string {
			var out []string
			for _, m := range ms {
				parts := strings.Split(m, "\r\n") // *4 $8 pmessage $n pattern $n channel $n payload
				if len(parts) > 8 {
					out = append(out, strings.TrimPrefix(parts[6], "__key")+"="+parts[8])
				}
			}
			return strings.Join(out, " ")
		}
		t.Fatalf("notifications differ\n redis: %s\n  rekv: %s", short(want), short(got))
	}
}

// TestExpiredNotification: a key that expires is announced as "expired"
// once the GC removes it.
func TestExpiredNotification(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.NotifyKeyspaceEvents = "Ex" })
	ctx := context.Background()
	c := newClient(t, n.Addr(), 2)
	ps := newClient(t, n.Addr(), 3).Subscribe(ctx, "__keyevent@0__:expired")
	defer ps.Close()
	if _, err := ps.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	must(t, c.Set(ctx, "soon", "v", 50*time.Millisecond).Err())
	select {
	case m := <-ps.Channel():
		if m.Payload != "soon" {
			t.Fatalf("expired event for %q", m.Payload)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no expired event")
	}
}

// TestPipelinedNotificationsInOrder: the events of one client's pipeline
// of writes over every shard arrive in its commands' order, as Redis
// publishes them. Each shard publishes as it commits, so without the
// ordering the events left grouped by shard (the first event was the
// fifth SET's). A few values are big enough to be assembled as they
// arrive, out of the parser's way, and a few SETs are in MULTI/EXEC.
func TestPipelinedNotificationsInOrder(t *testing.T) {
	for _, d := range drivers() {
		t.Run(d, func(t *testing.T) {
			n := startNode(t, d, func(c *conf.Config) { c.Server.NotifyKeyspaceEvents = "E$" })
			ctx := context.Background()
			ps := newClient(t, n.Addr(), 3).Subscribe(ctx, "__keyevent@0__:set")
			defer ps.Close()
			if _, err := ps.Receive(ctx); err != nil {
				t.Fatal(err)
			}
			const count = 300
			big := strings.Repeat("b", 1<<20) // assembled as it arrives
			pipe := newClient(t, n.Addr(), 2).Pipeline()
			for i := 0; i < count; i++ {
				v := "v"
				if i%60 == 7 {
					v = big
				}
				if i%25 == 3 { // a transaction's events in their place too
					pipe.Do(ctx, "MULTI")
					pipe.Set(ctx, fmt.Sprintf("order:%d", i), v, 0)
					pipe.Do(ctx, "EXEC")
					continue
				}
				pipe.Set(ctx, fmt.Sprintf("order:%d", i), v, 0)
			}
			if _, err := pipe.Exec(ctx); err != nil {
				t.Fatal(err)
			}
			ch := ps.Channel()
			for i := 0; i < count; i++ {
				select {
				case m := <-ch:
					if want := fmt.Sprintf("order:%d", i); m.Payload != want {
						t.Fatalf("event %d is for %s, want %s", i, m.Payload, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%d events of %d", i, count)
				}
			}
		})
	}
}
