//go:build linux && !poll_opt

package netpoll

// Added for rekv: a task TriggerLocal queues from the loop's goroutine
// runs after the events of the wake-up that queued it, without the
// poller's eventfd being written and without another event; so does a
// task such a task queues.

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	errorx "github.com/panjf2000/gnet/v2/pkg/errors"
	"github.com/panjf2000/gnet/v2/pkg/queue"
)

func TestTriggerLocal(t *testing.T) {
	for _, inRuntime := range []bool{false, true} {
		p, err := OpenPoller()
		if err != nil {
			t.Fatal(err)
		}
		p.WaitInRuntime(inRuntime)
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		if err := p.AddRead(&PollAttachment{FD: fds[0]}, false); err != nil {
			t.Fatal(err)
		}
		// order and efdWritten are written by the loop's goroutine; the
		// test reads them after a receive from ran, and between rounds,
		// while the loop waits for the pipe.
		var order []string
		ran := make(chan struct{}, 16)
		var efdWritten bool
		second := func(any) error {
			order = append(order, "second task")
			ran <- struct{}{}
			return nil
		}
		first := func(any) error {
			order = append(order, "first task")
			var b [8]byte
			_, err := unix.Read(p.efd, b[:])
			efdWritten = err == nil
			return p.TriggerLocal(second, nil) // queued by a task: runs too
		}
		done := make(chan error, 1)
		go func() {
			done <- p.Polling(func(fd int, _ IOEvent, _ IOFlags) error {
				var b [16]byte
				_, _ = unix.Read(fd, b[:])
				order = append(order, "event")
				err := p.TriggerLocal(first, nil)
				order = append(order, "event end")
				return err
			})
		}()
		time.Sleep(20 * time.Millisecond) // let the loop go idle
		for round := 0; round < 3; round++ {
			order = order[:0]
			if _, err := unix.Write(fds[1], []byte("x")); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Fatalf("WaitInRuntime(%v) round %d: the local tasks did not run without another event", inRuntime, round)
			}
			want := []string{"event", "event end", "first task", "second task"}
			if len(order) != len(want) {
				t.Fatalf("WaitInRuntime(%v) round %d: ran %q, want %q", inRuntime, round, order, want)
			}
			for i := range want {
				if order[i] != want[i] {
					t.Fatalf("WaitInRuntime(%v) round %d: ran %q, want %q", inRuntime, round, order, want)
				}
			}
			if efdWritten {
				t.Fatalf("WaitInRuntime(%v) round %d: TriggerLocal wrote the eventfd", inRuntime, round)
			}
			time.Sleep(20 * time.Millisecond)
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
