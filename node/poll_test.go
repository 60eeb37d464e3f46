package node

import (
	"context"
	"log/slog"
	stdnet "net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/conf"
)

// loopStates returns the scheduling states ("IO wait", "syscall", ...)
// of the goroutines running gnet's event loops.
func loopStates() []string {
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "netpoll.(*Poller).Polling") {
			continue
		}
		head := g[:strings.IndexByte(g, '\n')] // goroutine N [state, ...]:
		state := head[strings.IndexByte(head, '[')+1:]
		if i := strings.IndexAny(state, ",]"); i >= 0 {
			state = state[:i]
		}
		out = append(out, state)
	}
	return out
}

// TestLoopWait: by default (server.loop_wait auto) the idle event loops
// park in Go's network poller on TiKV (gnet patch 0002,
// net.Options.WaitInRuntime) and block in epoll_wait on Badger; the
// setting picks either on any driver.
func TestLoopWait(t *testing.T) {
	for _, tc := range []struct{ driver, wait, want string }{
		{"tikv", "auto", "IO wait"}, {"badger", "auto", "syscall"},
		{"tikv", "epoll", "syscall"}, {"badger", "runtime", "IO wait"},
	} {
		cfg := conf.Default()
		if cfg.Server.LoopWait != "auto" {
			t.Fatalf("server.loop_wait defaults to %q", cfg.Server.LoopWait)
		}
		cfg.Storage.Driver = tc.driver
		cfg.Server.LoopWait = tc.wait
		cfg.Storage.Badger.Dir = t.TempDir()
		cfg.Storage.Badger.Durability = "no"
		cfg.Storage.TiKV.PD = []string{"mock://"}
		l, err := stdnet.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Server.Port = l.Addr().(*stdnet.TCPAddr).Port
		l.Close()
		n, err := Start(cfg, "", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		var states []string
		ok := false
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !ok; time.Sleep(20 * time.Millisecond) {
			states = loopStates()
			ok = len(states) > 0
			for _, s := range states {
				ok = ok && s == tc.want
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := n.Close(ctx); err != nil {
			t.Error(err)
		}
		cancel()
		if !ok {
			t.Fatalf("%s, loop_wait %s: idle event loops in %q, want all %q", tc.driver, tc.wait, states, tc.want)
		}
	}
}
