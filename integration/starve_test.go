package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// TestHostileClientsDoNotStarveOthers: a slowloris client (a command
// trickling in a byte at a time) and a client that floods big reads and
// never reads its replies do not hold up the others, who keep being
// served; with an output buffer limit set, the non-reader is disconnected
// once its unsent replies pass it, so its memory is bounded by
// configuration.
func TestHostileClientsDoNotStarveOthers(t *testing.T) {
	n := startNode(t, "badger", func(c *conf.Config) {
		c.Server.OutputBufferLimitNormal = 8 << 20
		c.Server.Multicore = false // one event loop: the hostile clients share it with the others
	})
	ctx := context.Background()
	admin := newClient(t, n.Addr(), 2)
	must(t, admin.Set(ctx, "big", strings.Repeat("x", 1<<20), 0).Err())

	stop := make(chan struct{})
	defer close(stop)
	slow := dialRaw(t, n.Addr())
	go func() {
		cmd := encode("SET", "slow", strings.Repeat("y", 100))
		for i := 0; i < len(cmd); i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := slow.conn.Write([]byte{cmd[i]}); err != nil {
				return
			}
		}
	}()

	hog := dialRaw(t, n.Addr())
	go func() {
		batch := strings.Repeat(encode("GET", "big"), 64)
		for i := 0; i < 64; i++ { // 4,096 MiB of replies asked for, none read
			if _, err := hog.conn.Write([]byte(batch)); err != nil {
				return
			}
		}
	}()

	// Others are served meanwhile: 2,000 round trips, bounded in time
	// only to fail instead of hanging.
	c := dialRaw(t, n.Addr())
	t0 := time.Now()
	done := make(chan error, 1)
	go func() {
		for i := 0; i < 2000; i++ {
			c.write(encode("INCR", "counter"))
			if _, err := readReply(c.r); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a normal client was starved by the hostile ones")
	}
	t.Logf("2,000 round trips beside the hostile clients: %v", time.Since(t0))
	t1 := time.Now()
	defer func() { t.Logf("the non-reader was disconnected after %v more", time.Since(t1)) }()
	if got := admin.Get(ctx, "counter").Val(); got != "2000" {
		t.Fatalf("counter = %q", got)
	}

	// The non-reader is disconnected once past its output limit.
	deadline := time.Now().Add(30 * time.Second)
	for {
		list := admin.ClientList(ctx).Val()
		if !strings.Contains(list, hog.conn.LocalAddr().String()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client that never reads was not disconnected:\n%s", list)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
