//go:build linux && !poll_opt

package netpoll

// Added for rekv: with WaitInRuntime a Polling loop without events parks
// in Go's network poller ("IO wait") instead of a blocking epoll_wait
// ("syscall"), and still gets its file events and its tasks.

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	errorx "github.com/panjf2000/gnet/v2/pkg/errors"
	"github.com/panjf2000/gnet/v2/pkg/queue"
)

// pollingState returns the scheduling state of the goroutine running
// Polling ("IO wait", "syscall", ...), or "" if there is none.
func pollingState() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "netpoll.(*Poller).Polling") {
			continue
		}
		head := g[:strings.IndexByte(g, '\n')] // goroutine N [state, ...]:
		state := head[strings.IndexByte(head, '[')+1:]
		if i := strings.IndexAny(state, ",]"); i >= 0 {
			state = state[:i]
		}
		return state
	}
	return ""
}

func TestWaitInRuntime(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		want string
	}{{true, "IO wait"}, {false, "syscall"}} {
		p, err := OpenPoller()
		if err != nil {
			t.Fatal(err)
		}
		p.WaitInRuntime(tc.on)
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		events := make(chan int, 16)
		if err := p.AddRead(&PollAttachment{FD: fds[0]}, false); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			done <- p.Polling(func(fd int, _ IOEvent, _ IOFlags) error {
				var b [16]byte
				_, _ = unix.Read(fd, b[:])
				events <- fd
				return nil
			})
		}()
		// Idle: the loop waits where the mode says.
		var state string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if state = pollingState(); state == tc.want {
				break
			}
		}
		if state != tc.want {
			t.Fatalf("WaitInRuntime(%v): the idle loop is in %q, want %q", tc.on, state, tc.want)
		}
		// A file event and a task each wake it, again and again.
		for i := 0; i < 3; i++ {
			if _, err := unix.Write(fds[1], []byte("x")); err != nil {
				t.Fatal(err)
			}
			select {
			case fd := <-events:
				if fd != fds[0] {
					t.Fatalf("event on fd %d, want %d", fd, fds[0])
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("WaitInRuntime(%v): no event %d for a readable pipe", tc.on, i)
			}
			ran := make(chan struct{})
			if err := p.Trigger(queue.HighPriority, func(any) error { close(ran); return nil }, nil); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Fatalf("WaitInRuntime(%v): task %d not run", tc.on, i)
			}
			time.Sleep(20 * time.Millisecond) // idle again between rounds
		}
		if err := p.Trigger(queue.HighPriority, func(any) error { return errorx.ErrEngineShutdown }, nil); err != nil {
			t.Fatal(err)
		}
		if err := <-done; !errors.Is(err, errorx.ErrEngineShutdown) {
			t.Fatalf("Polling ended with %v", err)
		}
		_ = unix.Close(fds[0])
		_ = unix.Close(fds[1])
		_ = p.Close()
	}
}
