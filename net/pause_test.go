package net

import (
	"context"
	stdnet "net"
	"strconv"
	"testing"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// pauseProbe is a gnet handler reporting whether its first connection
// can pause reading, and whether its event loop can queue a task without
// waking itself (patch 0003, which loopPass.wakeUpEnd reaches the same
// way: without it, each wake-up costs two more system calls).
type pauseProbe struct {
	gnet.BuiltinEventEngine
	eng    gnet.Engine
	booted chan struct{}
	got    chan bool
	here   chan bool
}

func (p *pauseProbe) OnBoot(eng gnet.Engine) gnet.Action {
	p.eng = eng
	close(p.booted)
	return gnet.None
}

func (p *pauseProbe) OnOpen(c gnet.Conn) ([]byte, gnet.Action) {
	_, ok := c.(readPauser)
	_, here := c.EventLoop().(hereExecutor)
	p.here <- here
	p.got <- ok
	return nil, gnet.Close
}

// TestPauseReadingIsWired fails when the gnet in use cannot pause a
// connection's reading: without third_party/gnet's patch the type
// assertion in pauseReading fails silently, and a client pipelining
// faster than its commands run grows the server's memory without bound.
func TestPauseReadingIsWired(t *testing.T) {
	l, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*stdnet.TCPAddr).Port
	l.Close()
	p := &pauseProbe{booted: make(chan struct{}), got: make(chan bool, 1), here: make(chan bool, 1)}
	done := make(chan error, 1)
	go func() { done <- gnet.Run(p, "tcp://127.0.0.1:"+strconv.Itoa(port)) }()
	select {
	case <-p.booted:
	case err := <-done:
		t.Fatalf("gnet: %v", err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.eng.Stop(ctx)
		<-done
	}()
	c, err := stdnet.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case ok := <-p.got:
		if !ok {
			t.Fatal("gnet's connections cannot pause reading: third_party/gnet's patch 0001 is missing (go.mod's replace?)")
		}
		if !<-p.here {
			t.Fatal("gnet's event loops have no ExecuteHere: third_party/gnet's patch 0003 is missing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gnet never opened the connection")
	}
}
