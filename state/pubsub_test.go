package state

import (
	"fmt"
	"testing"
)

type fakeSub struct {
	proto int
	got   []string
}

func (f *fakeSub) Proto() int         { return f.proto }
func (f *fakeSub) Deliver(msg []byte) { f.got = append(f.got, string(msg)) }

func TestBroker(t *testing.T) {
	b := NewBroker()
	a, c, p, s := &fakeSub{proto: 2}, &fakeSub{proto: 3}, &fakeSub{proto: 2}, &fakeSub{proto: 3}
	b.Add(Channel, 0, "news", a)
	b.Add(Channel, 0, "news", c)
	b.Add(Pattern, 0, "n*", p)
	b.Add(Pattern, 0, "", p) // an empty pattern is a pattern too
	b.Add(ShardChannel, 0, "news", s)
	if n := b.Publish(0, []byte("news"), []byte("hi")); n != 3 {
		t.Fatalf("PUBLISH reached %d", n)
	}
	if a.got[0] != "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n" || c.got[0] != ">3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n" {
		t.Errorf("messages %q %q", a.got, c.got)
	}
	if p.got[0] != "*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$2\r\nhi\r\n" {
		t.Errorf("pmessage %q", p.got)
	}
	if len(s.got) != 0 {
		t.Error("a shard subscriber got a PUBLISH")
	}
	if n := b.PublishShard(0, []byte("news"), []byte("x")); n != 1 || s.got[0] != ">3\r\n$8\r\nsmessage\r\n$4\r\nnews\r\n$1\r\nx\r\n" {
		t.Errorf("SPUBLISH %d %q", n, s.got)
	}
	if n := b.Publish(0, []byte(""), []byte("e")); n != 1 || p.got[len(p.got)-1] != "*4\r\n$8\r\npmessage\r\n$0\r\n\r\n$0\r\n\r\n$1\r\ne\r\n" {
		t.Errorf("empty pattern: %d %q", n, p.got)
	}
	if fmt.Sprint(b.Channels(0, nil), b.Channels(0, []byte("x*")), b.ShardChannels(0, nil)) != "[news] [] [news]" {
		t.Errorf("channels %v %v", b.Channels(0, nil), b.ShardChannels(0, nil))
	}
	if b.NumSub(0, []byte("news")) != 2 || b.ShardNumSub(0, []byte("news")) != 1 || b.NumPat(0) != 2 || b.Receivers(0, []byte("news")) != 3 {
		t.Errorf("counts %d %d %d %d", b.NumSub(0, []byte("news")), b.ShardNumSub(0, []byte("news")), b.NumPat(0), b.Receivers(0, []byte("news")))
	}
	b.Remove(Channel, 0, a, "news", "other")
	b.Remove(Pattern, 0, p, "n*", "")
	b.Remove(ShardChannel, 0, s, "news")
	if b.NumSub(0, []byte("news")) != 1 || b.NumPat(0) != 0 || len(b.ShardChannels(0, nil)) != 0 {
		t.Errorf("after removes: %d %d %v", b.NumSub(0, []byte("news")), b.NumPat(0), b.ShardChannels(0, nil))
	}
	b.Remove(Channel, 0, c, "news")
	if len(b.Channels(0, nil)) != 0 || b.Publish(0, []byte("news"), nil) != 0 {
		t.Error("an emptied channel stays")
	}
}

// TestBrokerNamespaces shows names of one namespace reach nothing of
// another: channels, patterns, shard channels and the counts.
func TestBrokerNamespaces(t *testing.T) {
	b := NewBroker()
	d, a, pa, sa := &fakeSub{proto: 2}, &fakeSub{proto: 2}, &fakeSub{proto: 2}, &fakeSub{proto: 3}
	b.Add(Channel, 0, "news", d)
	b.Add(Channel, 7, "news", a)
	b.Add(Pattern, 7, "*", pa)
	b.Add(ShardChannel, 7, "news", sa)
	if n := b.Publish(0, []byte("news"), []byte("x")); n != 1 || len(d.got) != 1 || len(a.got)+len(pa.got) != 0 {
		t.Errorf("PUBLISH in namespace 0 reached %d: %q %q %q", n, d.got, a.got, pa.got)
	}
	if n := b.Publish(7, []byte("news"), []byte("y")); n != 2 || len(d.got) != 1 || len(a.got) != 1 || len(pa.got) != 1 {
		t.Errorf("PUBLISH in namespace 7 reached %d: %q %q %q", n, d.got, a.got, pa.got)
	}
	if n := b.PublishShard(0, []byte("news"), []byte("z")); n != 0 || len(sa.got) != 0 {
		t.Errorf("SPUBLISH in namespace 0 reached %d", n)
	}
	if n := b.Publish(3, []byte("news"), []byte("w")); n != 0 {
		t.Errorf("PUBLISH in a namespace without subscribers reached %d", n)
	}
	if fmt.Sprint(b.Channels(0, nil), b.Channels(7, nil), b.NumPat(0), b.NumPat(7), b.NumSub(3, []byte("news")),
		b.ShardChannels(0, nil), b.ShardNumSub(7, []byte("news")), b.Receivers(0, []byte("news")), b.Receivers(7, []byte("news"))) !=
		"[news] [news] 0 1 0 [] 1 1 2" {
		t.Errorf("counts by namespace: %v %v %d %d", b.Channels(0, nil), b.Channels(7, nil), b.NumPat(0), b.NumPat(7))
	}
}
