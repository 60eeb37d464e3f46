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
	b.Add(Channel, "news", a)
	b.Add(Channel, "news", c)
	b.Add(Pattern, "n*", p)
	b.Add(Pattern, "", p) // an empty pattern is a pattern too
	b.Add(ShardChannel, "news", s)
	if n := b.Publish([]byte("news"), []byte("hi")); n != 3 {
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
	if n := b.PublishShard([]byte("news"), []byte("x")); n != 1 || s.got[0] != ">3\r\n$8\r\nsmessage\r\n$4\r\nnews\r\n$1\r\nx\r\n" {
		t.Errorf("SPUBLISH %d %q", n, s.got)
	}
	if n := b.Publish([]byte(""), []byte("e")); n != 1 || p.got[len(p.got)-1] != "*4\r\n$8\r\npmessage\r\n$0\r\n\r\n$0\r\n\r\n$1\r\ne\r\n" {
		t.Errorf("empty pattern: %d %q", n, p.got)
	}
	if fmt.Sprint(b.Channels(nil), b.Channels([]byte("x*")), b.ShardChannels(nil)) != "[news] [] [news]" {
		t.Errorf("channels %v %v", b.Channels(nil), b.ShardChannels(nil))
	}
	if b.NumSub([]byte("news")) != 2 || b.ShardNumSub([]byte("news")) != 1 || b.NumPat() != 2 || b.Receivers([]byte("news")) != 3 {
		t.Errorf("counts %d %d %d %d", b.NumSub([]byte("news")), b.ShardNumSub([]byte("news")), b.NumPat(), b.Receivers([]byte("news")))
	}
	b.Remove(Channel, a, "news", "other")
	b.Remove(Pattern, p, "n*", "")
	b.Remove(ShardChannel, s, "news")
	if b.NumSub([]byte("news")) != 1 || b.NumPat() != 0 || len(b.ShardChannels(nil)) != 0 {
		t.Errorf("after removes: %d %d %v", b.NumSub([]byte("news")), b.NumPat(), b.ShardChannels(nil))
	}
	b.Remove(Channel, c, "news")
	if len(b.Channels(nil)) != 0 || b.Publish([]byte("news"), nil) != 0 {
		t.Error("an emptied channel stays")
	}
}
