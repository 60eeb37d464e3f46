package integration

import (
	"fmt"
	"strings"
	"testing"
)

// TestSubscribeThenPublishNeverLoses: once a SUBSCRIBE is acknowledged to
// its client, every PUBLISH issued afterwards on any connection reaches
// it, over many fresh channels, with raw sockets (no client library
// buffering), for plain and pattern subscriptions, RESP2 and RESP3.
func TestSubscribeThenPublishNeverLoses(t *testing.T) {
	n := startNode(t, "badger", nil)
	for _, proto := range []string{"2", "3"} {
		for _, cmd := range []string{"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE"} {
			sub, pub := dialRaw(t, n.Addr()), dialRaw(t, n.Addr())
			if proto == "3" {
				sub.do("HELLO", "3")
			}
			for i := 0; i < 500; i++ {
				ch := fmt.Sprint(cmd, proto, ":", i)
				sub.do(cmd, ch)
				publish := "PUBLISH"
				if cmd == "SSUBSCRIBE" {
					publish = "SPUBLISH"
				}
				if got := pub.do(publish, ch, "m"); got != ":1\r\n" {
					t.Fatalf("%s resp%s #%d: PUBLISH right after the acknowledged %s reached %q", cmd, proto, i, cmd, got)
				}
				msg := sub.reply()
				want := fmt.Sprintf("*3\r\n$7\r\nmessage\r\n$%d\r\n%s\r\n$1\r\nm\r\n", len(ch), ch)
				if cmd == "SSUBSCRIBE" {
					want = fmt.Sprintf("*3\r\n$8\r\nsmessage\r\n$%d\r\n%s\r\n$1\r\nm\r\n", len(ch), ch)
				}
				if cmd == "PSUBSCRIBE" {
					want = fmt.Sprintf("*4\r\n$8\r\npmessage\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n$1\r\nm\r\n", len(ch), ch, len(ch), ch)
				}
				if proto == "3" {
					want = ">" + want[1:]
				}
				if msg != want {
					t.Fatalf("%s resp%s #%d: got %q, want %q", cmd, proto, i, msg, want)
				}
			}
		}
	}
}

// TestPublishCountsMatchDeliveries: a publisher numbers its messages while
// a subscriber subscribes in the middle. Every PUBLISH that reported a
// receiver is received, in order, with no gap, and none issued after the
// SUBSCRIBE was acknowledged reports none.
func TestPublishCountsMatchDeliveries(t *testing.T) {
	n := startNode(t, "badger", nil)
	for round := 0; round < 10; round++ {
		ch := fmt.Sprint("numbered:", round)
		sub, pub := dialRaw(t, n.Addr()), dialRaw(t, n.Addr())
		acked := make(chan int, 1)
		published := make(chan int, 1)
		var counts []string
		go func() {
			ackAt := -1
			for i := 0; i < 1000; i++ {
				if ackAt < 0 {
					select {
					case <-acked:
						ackAt = i
					default:
					}
				}
				counts = append(counts, pub.do("PUBLISH", ch, fmt.Sprint(i)))
			}
			published <- ackAt
		}()
		for i := 0; i < round*20; i++ {
			sub.do("PING") // subscribe at a different point each round
		}
		sub.do("SUBSCRIBE", ch)
		acked <- 1
		ackAt := <-published
		var delivered []int
		for i, c := range counts {
			switch {
			case c == ":1\r\n":
				delivered = append(delivered, i)
			case ackAt >= 0 && i >= ackAt:
				t.Fatalf("round %d: PUBLISH #%d after the acknowledged SUBSCRIBE (#%d) reached %q", round, i, ackAt, c)
			}
		}
		for _, i := range delivered {
			want := fmt.Sprintf("*3\r\n$7\r\nmessage\r\n$%d\r\n%s\r\n$%d\r\n%d\r\n", len(ch), ch, len(fmt.Sprint(i)), i)
			if got := sub.reply(); got != want {
				t.Fatalf("round %d: got %q, want message %d", round, got, i)
			}
		}
		for i := 1; i < len(delivered); i++ {
			if delivered[i] != delivered[i-1]+1 {
				t.Fatalf("round %d: deliveries jump from %d to %d", round, delivered[i-1], delivered[i])
			}
		}
	}
}

// TestSubscribeSeenAcrossConnections: a client opens a connection, says
// HELLO and writes SUBSCRIBE without waiting for its reply (as go-redis's
// Subscribe does); a PUBSUB NUMSUB and a PUBLISH sent after it on another
// connection see the subscription, as on Redis, where one thread reads
// both in the order their bytes arrived. rekv's single network event
// loop (the default) gives the same order; with one loop per core the
// two connections were read in either order (62 misses in 300).
func TestSubscribeSeenAcrossConnections(t *testing.T) {
	n := startNode(t, "badger", nil)
	other := dialRaw(t, n.Addr())
	for i := 0; i < 300; i++ {
		ch := fmt.Sprint("seen:", i)
		sub := dialRaw(t, n.Addr())
		if got := sub.do("HELLO", "2"); !strings.HasPrefix(got, "*14\r\n") {
			t.Fatalf("HELLO: %q", got)
		}
		sub.write(encode("SUBSCRIBE", ch))
		want := fmt.Sprintf("*2\r\n$%d\r\n%s\r\n:1\r\n", len(ch), ch)
		if got := other.do("PUBSUB", "NUMSUB", ch); got != want {
			t.Fatalf("#%d: PUBSUB NUMSUB after a SUBSCRIBE sent before it: %q, want %q", i, got, want)
		}
		if got := other.do("PUBLISH", ch, "m"); got != ":1\r\n" {
			t.Fatalf("#%d: PUBLISH after a SUBSCRIBE sent before it reached %q", i, got)
		}
		sub.conn.Close()
	}
}
