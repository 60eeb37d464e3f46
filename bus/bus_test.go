package bus

import (
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/guard"
)

// recorder collects what a bus hands its handler.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.msgs = append(r.msgs, s)
	r.mu.Unlock()
}

func (r *recorder) wait(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		got := slices.Clone(r.msgs)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("got %d messages, want %d: %q", len(got), n, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func handler(r *recorder) Handler {
	keys := func(ks []Key) string {
		var s []string
		for _, k := range ks {
			s = append(s, fmt.Sprintf("%d/%s", k.DB, k.Key))
		}
		return fmt.Sprint(s)
	}
	return Handler{
		Publish:      func(ns uint32, ch, msg []byte) { r.add("pub" + nsTag(ns) + " " + string(ch) + " " + string(msg)) },
		PublishShard: func(ns uint32, ch, msg []byte) { r.add("spub" + nsTag(ns) + " " + string(ch) + " " + string(msg)) },
		Ready:        func(ks []Key) { r.add("ready " + keys(ks)) },
		Invalidate:   func(ks []Key, flushed bool) { r.add(fmt.Sprintf("inval %s %v", keys(ks), flushed)) },
	}
}

func TestBus(t *testing.T) {
	var ra, rb recorder
	var addrB atomic.Value
	addrB.Store("")
	a, err := Start(Options{Addr: "127.0.0.1:0", Handler: handler(&ra), Peers: func() map[string]string {
		if addr := addrB.Load().(string); addr != "" {
			return map[string]string{"b": addr}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(Options{Addr: "127.0.0.1:0", Handler: handler(&rb), Peers: func() map[string]string {
		return map[string]string{"a": a.Addr()}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	addrB.Store(b.Addr()) // a's next look at its peers finds b

	// Wait until a has a connection to b, then send in order.
	deadline := time.Now().Add(5 * time.Second)
	for st := a.Stats(); st.Peers != 1 || len(st.Unreachable) != 0; st = a.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("a never connected to b: %+v", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
	const n = 1000
	for i := range n {
		a.Publish(0, []byte("ch"), []byte(fmt.Sprint(i)))
	}
	a.PublishShard(0, []byte("sch"), []byte(""))
	a.Publish(7, []byte("ch"), []byte("seven"))
	a.PublishShard(1<<31, []byte("sch"), []byte("big"))
	a.Ready([]Key{{0, []byte("q")}, {3, []byte("")}})
	a.Invalidate(nil, true)
	a.Invalidate([]Key{{1, []byte("k")}}, false)
	got := rb.wait(t, n+6)
	for i := range n {
		if want := fmt.Sprintf("pub ch %d", i); got[i] != want {
			t.Fatalf("message %d: %q, want %q (order kept)", i, got[i], want)
		}
	}
	if want := []string{"spub sch ", "pub@7 ch seven", "spub@2147483648 sch big", "ready [0/q 3/]", "inval [] true", "inval [1/k] false"}; fmt.Sprint(got[n:]) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got[n:], want)
	}
	b.Publish(0, []byte("back"), []byte("x"))
	if got := ra.wait(t, 1); got[0] != "pub back x" {
		t.Fatalf("b to a: %q", got)
	}
	if st := a.Stats(); st.Sent != n+6 || st.Dropped != 0 {
		t.Fatalf("a's stats: %+v", st)
	}

	// b closes: a reports it unreachable.
	b.Close()
	deadline = time.Now().Add(5 * time.Second)
	for {
		a.Publish(0, []byte("ch"), []byte("lost")) // a write finds the connection gone
		if st := a.Stats(); len(st.Unreachable) == 1 && st.Unreachable[0] == "b" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("b not reported unreachable: %+v", a.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBadFrames(t *testing.T) {
	var r recorder
	b, err := Start(Options{Addr: "127.0.0.1:0", Handler: handler(&r), Peers: func() map[string]string { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, frame := range [][]byte{
		{9, 0, 0, 0, 0},                       // unknown kind
		{kindPublish, 0, 0, 0, 2, 0, 0},       // channel length cut short
		{kindReady, 0, 0, 0, 4, 0, 0, 0, 1},   // one key announced, none there
		{kindPublish, 0xff, 0xff, 0xff, 0xff}, // over MaxFrame
		{kindPublishNS, 0, 0, 0, 3, 0, 0, 7},  // a namespace id cut short
	} {
		c, err := net.Dial("tcp", b.Addr())
		if err != nil {
			t.Fatal(err)
		}
		c.Write(frame)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err == nil {
			t.Fatalf("frame %x: connection not closed", frame)
		}
		c.Close()
	}
	if got := r.wait(t, 0); len(got) != 0 {
		t.Fatalf("bad frames delivered %q", r.msgs)
	}
}

// TestHandlerPanic: a handler that panics on a peer's frame costs that
// link only: the panic is counted, the link closes, and the bus serves the
// next connection.
func TestHandlerPanic(t *testing.T) {
	var r recorder
	var panics guard.Counter
	h := handler(&r)
	h.Publish = func(_ uint32, ch, msg []byte) {
		if string(msg) == "boom" {
			panic("injected")
		}
		r.add("pub " + string(ch) + " " + string(msg))
	}
	b, err := Start(Options{Addr: "127.0.0.1:0", Handler: h, Peers: func() map[string]string { return nil }, Panics: &panics})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	frame := func(msg string) []byte {
		p := binary.BigEndian.AppendUint32(nil, 2)
		p = append(append(p, "ch"...), msg...)
		return append(binary.BigEndian.AppendUint32([]byte{kindPublish}, uint32(len(p))), p...)
	}
	c, err := net.Dial("tcp", b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(append(frame("boom"), frame("lost")...))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatal("the link that panicked is still open")
	}
	if panics.Load() != 1 {
		t.Fatalf("panics counted: %d", panics.Load())
	}
	c2, err := net.Dial("tcp", b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	c2.Write(frame("fine"))
	if got := r.wait(t, 1); len(got) != 1 || got[0] != "pub ch fine" {
		t.Fatalf("after the panic: %q", got)
	}
}

// nsTag names a namespace in the recorder's lines ("": the default one).
func nsTag(ns uint32) string {
	if ns == 0 {
		return ""
	}
	return fmt.Sprintf("@%d", ns)
}
