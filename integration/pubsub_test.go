package integration

import (
	"context"
	"fmt"
	stdnet "net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// TestPubSubFanOut: 100 subscribers, half on a channel and half on a
// pattern, in RESP2 and RESP3; every message reaches every matching
// subscriber once, in order, and PUBLISH counts the receivers.
func TestPubSubFanOut(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		pub := newClient(t, addr, 2)
		const subscribers, msgs = 100, 20
		type sub struct {
			pattern bool
			got     []string
		}
		subs := make([]*sub, subscribers)
		var wg sync.WaitGroup
		for i := range subs {
			c := newClient(t, addr, 2+i%2)
			s := &sub{pattern: i%2 == 1}
			subs[i] = s
			var ps *redis.PubSub
			if s.pattern {
				ps = c.PSubscribe(ctx, "news.*")
			} else {
				ps = c.Subscribe(ctx, "news.sport")
			}
			t.Cleanup(func() { ps.Close() })
			if _, err := ps.Receive(ctx); err != nil { // the confirmation
				t.Fatal(err)
			}
			want := msgs
			if s.pattern {
				want = 2 * msgs
			}
			ch := ps.Channel()
			wg.Add(1)
			go func() {
				defer wg.Done()
				timeout := time.After(20 * time.Second)
				for len(s.got) < want {
					select {
					case m := <-ch:
						s.got = append(s.got, m.Channel+"="+m.Payload)
					case <-timeout:
						return
					}
				}
			}()
		}
		if n := pub.PubSubNumSub(ctx, "news.sport").Val()["news.sport"]; n != subscribers/2 {
			t.Fatalf("NUMSUB = %d", n)
		}
		if n := pub.PubSubNumPat(ctx).Val(); n != 1 {
			t.Fatalf("NUMPAT = %d", n)
		}
		for i := 0; i < msgs; i++ {
			if n := pub.Publish(ctx, "news.sport", fmt.Sprint("s", i)).Val(); n != subscribers {
				t.Fatalf("PUBLISH news.sport reached %d, want %d", n, subscribers)
			}
			if n := pub.Publish(ctx, "news.tech", fmt.Sprint("t", i)).Val(); n != subscribers/2 {
				t.Fatalf("PUBLISH news.tech reached %d, want %d", n, subscribers/2)
			}
		}
		wg.Wait()
		for i, s := range subs {
			var want []string
			for m := 0; m < msgs; m++ {
				want = append(want, fmt.Sprint("news.sport=s", m))
				if s.pattern {
					want = append(want, fmt.Sprint("news.tech=t", m))
				}
			}
			if fmt.Sprint(s.got) != fmt.Sprint(want) {
				t.Fatalf("subscriber %d got %v\nwant %v", i, s.got, want)
			}
		}
		if n := pub.Publish(ctx, "other", "x").Val(); n != 0 {
			t.Fatalf("PUBLISH other reached %d", n)
		}
	})
}

// TestSlowSubscriberIsCutOff: a subscriber that never reads is
// disconnected once its unsent output passes the pub/sub limit, and the
// publisher and other clients keep working.
func TestSlowSubscriberIsCutOff(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.OutputBufferLimitPubSub = 1 << 20 })
	ctx := context.Background()
	pub := newClient(t, n.Addr(), 2)
	conn, err := stdnet.DialTimeout("tcp", n.Addr(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*stdnet.TCPConn).SetReadBuffer(4096)
	if _, err := conn.Write([]byte(encode("SUBSCRIBE", "firehose"))); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500 && pub.PubSubNumSub(ctx, "firehose").Val()["firehose"] == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	payload := strings.Repeat("x", 64<<10)
	cut := false
	for i := 0; i < 2000; i++ { // at most 128 MiB
		if pub.Publish(ctx, "firehose", payload).Val() == 0 {
			cut = true
			break
		}
	}
	if !cut {
		t.Fatal("the subscriber that never reads was not disconnected")
	}
	if err := pub.Set(ctx, "still", "working", 0).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestNormalOutputLimit: with server.output_buffer_limit_normal set, a
// client that pipelines big reads without reading the replies is
// disconnected instead of growing the server's memory.
func TestNormalOutputLimit(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) { c.Server.OutputBufferLimitNormal = 4 << 20 })
	ctx := context.Background()
	admin := newClient(t, n.Addr(), 2)
	must(t, admin.Set(ctx, "big", strings.Repeat("v", 1<<20), 0).Err())
	conn, err := stdnet.DialTimeout("tcp", n.Addr(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*stdnet.TCPConn).SetReadBuffer(4096)
	_ = conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	req := []byte(strings.Repeat(encode("GET", "big"), 50))
	closed := false
	for i := 0; i < 40 && !closed; i++ { // at most 2,000 replies of 1 MiB
		if _, err := conn.Write(req); err != nil {
			closed = true
		}
		for j := 0; j < 50 && !closed; j++ {
			if admin.ClientList(ctx).Val() != "" && countClients(t, admin) == 1 {
				closed = true
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	if !closed {
		t.Fatal("a client that never reads was not disconnected")
	}
	if err := admin.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
}

func countClients(t *testing.T, c *redis.Client) int {
	t.Helper()
	return strings.Count(c.ClientList(context.Background()).Val(), "\n")
}
