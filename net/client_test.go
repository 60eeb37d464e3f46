package net

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/panjf2000/gnet/v2"
)

// wakeConn is a connection whose wake-ups are counted and whose writes
// are kept.
type wakeConn struct {
	gnet.Conn
	wakes  int
	out    bytes.Buffer
	closed bool
}

func (c *wakeConn) Wake(gnet.AsyncCallback) error { c.wakes++; return nil }
func (c *wakeConn) Writev(bs [][]byte) (int, error) {
	n := 0
	for _, b := range bs {
		w, _ := c.out.Write(b)
		n += w
	}
	return n, nil
}
func (c *wakeConn) OutboundBuffered() int { return 0 }
func (c *wakeConn) Close() error          { c.closed = true; return nil }

// testClient returns a client of a bare server, with n commands
// dispatched (sequence numbers 0..n-1), and the server's log.
func testClient(n uint64) (*client, *wakeConn, *bytes.Buffer) {
	var log bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&log, nil)), stats: newServerStats(),
		pipelineBytes: 16 << 20, outputPause: 16 << 20}
	conn := &wakeConn{}
	cl := &client{srv: s, conn: conn}
	cl.nextSeq = n
	cl.assigned.Store(n)
	return cl, conn, &log
}

// TestReplyOutOfPlace: a second reply to a command, or a reply to one
// already written or never dispatched, is dropped and logged; it neither
// panics nor takes another command's place (a deferred reply after EXEC
// once did: index out of range).
func TestReplyOutOfPlace(t *testing.T) {
	cl, conn, log := testClient(3)
	cl.Reply(1, []byte("+one\r\n"))
	cl.Reply(1, []byte("+again\r\n")) // pending already
	cl.Reply(0, []byte("+zero\r\n"))
	cl.endBatch()
	cl.Reply(0, []byte("+late\r\n"))  // written already
	cl.Reply(7, []byte("+never\r\n")) // never dispatched
	cl.Reply(2, []byte("+two\r\n"))
	cl.endBatch()
	if got := conn.out.String(); got != "+zero\r\n+one\r\n+two\r\n" {
		t.Fatalf("written %q", got)
	}
	if n := strings.Count(log.String(), "a second reply to a command was dropped"); n != 3 {
		t.Fatalf("%d stray replies logged, want 3:\n%s", n, log.String())
	}
}

// TestReplyInOrder: replies arriving out of order leave in request order.
func TestReplyInOrder(t *testing.T) {
	cl, conn, _ := testClient(4)
	for _, seq := range []uint64{2, 0, 3, 1} {
		cl.Reply(seq, []byte{'+', byte('0' + seq), '\r', '\n'})
	}
	cl.endBatch()
	if got := conn.out.String(); got != "+0\r\n+1\r\n+2\r\n+3\r\n" {
		t.Fatalf("written %q", got)
	}
	if conn.wakes == 0 {
		t.Fatal("no wake-up asked for the ready replies")
	}
}

// TestEndBatchKeepsItsSlices: passes that write nothing (their replies
// not ready yet) keep the emptied slices that writes swap in; the second
// in a row dropped the last, and the queue of replies grew anew from
// nothing (1% of a pipelined GET's CPU).
func TestEndBatchKeepsItsSlices(t *testing.T) {
	cl, conn, _ := testClient(0)
	reply := []byte("+OK\r\n")
	cycle := func() {
		seq := cl.nextSeq
		cl.nextSeq++
		cl.assigned.Store(cl.nextSeq)
		cl.beginBatch()
		cl.Reply(seq, reply)
		cl.endBatch()
		for range 2 { // passes with nothing to write
			cl.beginBatch()
			cl.endBatch()
		}
		conn.out.Reset()
	}
	for range 3 {
		cycle()
	}
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Fatalf("%v allocations a pass, want 0", n)
	}
}
