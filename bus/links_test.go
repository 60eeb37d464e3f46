package bus

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// awaitLinks polls b.Links until it reads want (direction and node of
// each link, in order), 5 s at most.
func awaitLinks(t *testing.T, b *Bus, want string) []Link {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		links := b.Links()
		var got []string
		for _, l := range links {
			dir := "from"
			if l.To {
				dir = "to"
			}
			got = append(got, dir+" "+l.Node)
		}
		if fmt.Sprint(got) == want {
			return links
		}
		if time.Now().After(deadline) {
			t.Fatalf("links %v, want %s", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLinks(t *testing.T) {
	var ra, rb recorder
	a, err := Start(Options{Addr: "127.0.0.1:0", ID: "a", Handler: handler(&ra), Peers: func() map[string]string { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(Options{Addr: "127.0.0.1:0", ID: "b", Handler: handler(&rb), Peers: func() map[string]string {
		return map[string]string{"a": a.Addr()}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := time.Now()
	// b's link to a, and a's from b named by b's hello.
	bl := awaitLinks(t, b, "[to a]")
	al := awaitLinks(t, a, "[from b]")
	for _, l := range append(bl, al...) {
		if l.Created.Before(start.Add(-time.Second)) || l.Created.After(time.Now()) {
			t.Fatalf("link created at %v, test started %v", l.Created, start)
		}
	}
	if bl[0].Buffer != writeBuffer || al[0].Buffer != 0 || al[0].Queued != 0 {
		t.Fatalf("buffers: to %+v, from %+v", bl[0], al[0])
	}
	// The hello is not a message: a's handler got nothing, and what b
	// sends arrives; once written, nothing stays queued.
	for i := range 100 {
		b.Publish(0, []byte("ch"), []byte(fmt.Sprint(i)))
	}
	ra.wait(t, 100)
	if got := ra.wait(t, 0); len(got) != 100 || got[0] != "pub ch 0" {
		t.Fatalf("a got %d messages, first %q", len(got), got[0])
	}
	if l := b.Links()[0]; l.Queued != 0 {
		t.Fatalf("queued after delivery: %+v", l)
	}

	// A connection that never says hello (a node of an older version)
	// is listed with no node; it goes when it closes.
	c, err := net.Dial("tcp", a.Addr())
	if err != nil {
		t.Fatal(err)
	}
	awaitLinks(t, a, "[from  from b]")
	c.Close()
	awaitLinks(t, a, "[from b]")

	// A peer's queue counts the bytes waiting while it cannot be reached.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := ln.Addr().String()
	ln.Close()
	d, err := Start(Options{Addr: "127.0.0.1:0", ID: "d", Peers: func() map[string]string { return map[string]string{"x": gone} }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	deadline := time.Now().Add(5 * time.Second)
	for d.Stats().Peers != 1 {
		if time.Now().After(deadline) {
			t.Fatal("d never took its peer")
		}
		time.Sleep(5 * time.Millisecond)
	}
	d.Publish(0, []byte("c"), []byte("m")) // frame: 5 + 4 + 1 + 1 bytes
	d.mu.Lock()
	q := d.peers["x"].queued.Load()
	d.mu.Unlock()
	if q != 11 {
		t.Fatalf("queued %d bytes, want 11", q)
	}
	if links := d.Links(); len(links) != 0 {
		t.Fatalf("links of a node whose peer is down: %+v", links)
	}
}
