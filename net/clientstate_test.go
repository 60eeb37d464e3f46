package net

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/drivers/badger"
)

// The connection's state machine, without a network: replies, pushes,
// reply modes, closing, the pause of a client with too much in flight,
// and MULTI's states.

// TestPushWaitsForEarlierReplies: a Pub/Sub message goes out after the
// replies of every command the client sent before it, never between.
func TestPushWaitsForEarlierReplies(t *testing.T) {
	cl, conn, _ := testClient(2)
	cl.push([]byte(">msg\r\n")) // both commands are still unanswered
	cl.Reply(1, []byte("+b\r\n"))
	cl.endBatch()
	if got := conn.out.String(); got != "" {
		t.Fatalf("written before the first reply: %q", got)
	}
	cl.Reply(0, []byte("+a\r\n"))
	cl.endBatch()
	if got := conn.out.String(); got != "+a\r\n+b\r\n>msg\r\n" {
		t.Fatalf("written %q", got)
	}
	cl.push([]byte(">now\r\n")) // nothing unanswered: out at once
	cl.endBatch()
	if got := conn.out.String(); got != "+a\r\n+b\r\n>msg\r\n>now\r\n" {
		t.Fatalf("written %q", got)
	}
}

// TestSilencedReplies: CLIENT REPLY OFF and SKIP drop a command's reply
// but not a RESP3 push (a SUBSCRIBE's confirmation), and the replies
// after it still keep their order.
func TestSilencedReplies(t *testing.T) {
	cl, conn, _ := testClient(4)
	cl.silence(0)
	cl.silence(1)
	cl.Reply(0, []byte("+dropped\r\n"))
	cl.Reply(1, []byte(">3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n"))
	cl.Reply(3, []byte("+d\r\n"))
	cl.Reply(2, nil) // a command with no reply of its own (CLIENT REPLY OFF itself)
	cl.endBatch()
	if got := conn.out.String(); got != ">3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n+d\r\n" {
		t.Fatalf("written %q", got)
	}
}

// TestCloseAfterReply: a connection set to close after a reply (QUIT, a
// protocol error) writes every reply up to it, then closes, and drops
// later ones.
func TestCloseAfterReply(t *testing.T) {
	cl, conn, _ := testClient(3)
	cl.closeAfter(1)
	cl.Reply(0, []byte("+a\r\n"))
	cl.Reply(1, []byte("+OK\r\n"))
	cl.endBatch()
	if got := conn.out.String(); got != "+a\r\n+OK\r\n" || !conn.closed {
		t.Fatalf("written %q, closed %v", got, conn.closed)
	}
	cl.Reply(2, []byte("+late\r\n"))
	cl.endBatch()
	if got := conn.out.String(); got != "+a\r\n+OK\r\n" {
		t.Fatalf("a reply after the close was written: %q", got)
	}
}

// TestPauseWhenTooMuchInFlight: parsing pauses past maxInFlight commands
// unanswered, and an answer that brings them to half resumes it (and
// asks for a wake-up to parse what waited).
func TestPauseWhenTooMuchInFlight(t *testing.T) {
	cl, conn, _ := testClient(maxInFlight)
	if pause, _ := cl.pauseIfBusy(); !pause {
		t.Fatal("not paused with maxInFlight commands unanswered")
	}
	wakes := conn.wakes
	for seq := uint64(0); seq < maxInFlight/2-1; seq++ {
		cl.Reply(seq, []byte("+x\r\n"))
	}
	if !cl.paused {
		t.Fatal("resumed before half were answered")
	}
	cl.Reply(maxInFlight/2-1, []byte("+x\r\n"))
	if cl.paused || conn.wakes == wakes {
		t.Fatalf("not resumed at half (paused %v, wakes %d)", cl.paused, conn.wakes-wakes)
	}
	if pause, _ := cl.pauseIfBusy(); pause {
		t.Fatal("paused again with half unanswered")
	}
}

// TestMultiStates: MULTI's misuse errors, and a command that failed to
// queue aborting EXEC and ending the transaction.
func TestMultiStates(t *testing.T) {
	cl, _, _ := testClient(0)
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err := actors.New(actors.Options{Shards: 1}, drv, command.NewRegistry(), cl.srv.roles(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Stop(context.Background()); _ = drv.Close() })
	cl.srv.engine = e
	for _, step := range []struct {
		do   func() error
		want error
	}{
		{cl.Discard, rerr.ErrDiscardMulti},
		{cl.Exec, rerr.ErrExecNoMulti},
		{cl.Multi, nil},
		{cl.Multi, rerr.ErrNestedMulti},
		{func() error { return cl.Watch(nil) }, rerr.ErrWatchInMulti},
		{func() error { cl.multiErr = true; return cl.Exec() }, rerr.ErrExecAbort},
		{cl.Exec, rerr.ErrExecNoMulti}, // the abort ended it
		{cl.Multi, nil},
		{cl.Discard, nil},
		{cl.Discard, rerr.ErrDiscardMulti},
	} {
		if err := step.do(); !errors.Is(err, step.want) {
			t.Fatalf("got %v, want %v", err, step.want)
		}
	}
}
