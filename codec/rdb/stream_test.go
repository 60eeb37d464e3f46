package rdb

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/rekv/rekv/codec"
)

// redisStream is what redis-server 7.0.15 DUMPs after XADD st 1-1 f v a b,
// XADD st 2-5 f w, XGROUP CREATE st g 0, XREADGROUP GROUP g c1 COUNT 1
// STREAMS st >: one listpack node (master fields f, a; the first entry
// with SAMEFIELDS, the second with its own field), a group with one
// pending entry owned by c1.
const redisStream = "\x13\x01\x10\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x0133\x00\x00\x00\x13\x00\x02\x01\x00\x01\x02\x01\x81f\x02\x81a\x02\x00\x01\x02\x01\x00\x01\x00\x01\x81v\x02\x81b\x02\x05\x01\x00\x01\x01\x01\x04\x01\x01\x01\x81f\x02\x81w\x02\x06\x01\xff\x02\x02\x05\x01\x01\x00\x00\x02\x01\x01g\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01?\xd9\xbb\t\xa2\x01\x00\x00\x01\x01\x02c1?\xd9\xbb\t\xa2\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\n\x00\xef\xddF\xf5d\xec\x87+"

func TestStreamFromRedis(t *testing.T) {
	body, err := Verify([]byte(redisStream))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(body)
	if err != nil || v.Type != TypeStream2 {
		t.Fatalf("decode: %v (type %d)", err, v.Type)
	}
	s := v.Stream
	got := ""
	for _, e := range s.Entries {
		got += fmt.Sprintf("%v %q; ", e.ID, e.Fields)
	}
	got += fmt.Sprintf("last %v first %v maxdel %v added %d", s.LastID, s.FirstID, s.MaxDeletedID, s.EntriesAdded)
	want := `{1 1} ["f" "v" "a" "b"]; {2 5} ["f" "w"]; last {2 5} first {1 1} maxdel {0 0} added 2`
	if got != want {
		t.Fatalf("stream\n got %s\nwant %s", got, want)
	}
	if len(s.Groups) != 1 {
		t.Fatalf("groups %+v", s.Groups)
	}
	g := s.Groups[0]
	if string(g.Name) != "g" || g.LastID != (codec.StreamID{Ms: 1, Seq: 1}) || g.EntriesRead != 1 ||
		len(g.Pending) != 1 || string(g.Pending[0].Consumer) != "c1" || g.Pending[0].Deliveries != 1 ||
		g.Pending[0].DeliveredMs != 0x01a209bbd93f || len(g.Consumers) != 1 || string(g.Consumers[0].Name) != "c1" {
		t.Fatalf("group %+v", g)
	}
}

// TestStreamRoundTrip: DumpStream then Decode gives the stream back, over
// several listpack nodes, with large values and IDs far from their node's
// first.
func TestStreamRoundTrip(t *testing.T) {
	s := &Stream{LastID: codec.StreamID{Ms: 1 << 40, Seq: 9}, MaxDeletedID: codec.StreamID{Ms: 3}, EntriesAdded: 300}
	for i := 0; i < 250; i++ {
		id := codec.StreamID{Ms: uint64(i) * 1000003, Seq: uint64(i % 5)}
		fields := [][]byte{[]byte("k"), []byte(fmt.Sprint(i))}
		if i%9 == 0 {
			fields = append(fields, []byte("big"), make([]byte, 5000+i))
		}
		s.Entries = append(s.Entries, StreamEntry{ID: id, Fields: fields})
	}
	s.FirstID = s.Entries[0].ID
	s.Groups = []StreamGroup{{Name: []byte("g"), LastID: codec.StreamID{Ms: 7}, EntriesRead: -1,
		Pending: []StreamPending{
			{ID: s.Entries[1].ID, DeliveredMs: 1234, Deliveries: 2, Consumer: []byte("a")},
			{ID: s.Entries[2].ID, DeliveredMs: 99, Deliveries: 1, Consumer: []byte("b")},
		},
		Consumers: []StreamConsumer{{Name: []byte("a"), SeenMs: 5}, {Name: []byte("b"), SeenMs: 6}, {Name: []byte("idle")}}}}
	body, err := Verify(DumpStream(s))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Stream, s) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", v.Stream.Groups, s.Groups)
	}
}

// TestStreamRejects: inconsistent streams are a bad format.
func TestStreamRejects(t *testing.T) {
	good := &Stream{Entries: []StreamEntry{{ID: codec.StreamID{Ms: 5}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
		LastID: codec.StreamID{Ms: 5}, EntriesAdded: 1}
	for name, s := range map[string]*Stream{
		"last ID before an entry": {Entries: good.Entries, LastID: codec.StreamID{Ms: 4}},
		"entries out of order":    {Entries: []StreamEntry{good.Entries[0], good.Entries[0]}, LastID: codec.StreamID{Ms: 9}},
		"pending without owner": {Entries: good.Entries, LastID: good.LastID, Groups: []StreamGroup{{Name: []byte("g"),
			Pending: []StreamPending{{ID: codec.StreamID{Ms: 5}, Consumer: []byte("ghost")}}}}},
		"duplicate groups": {Entries: good.Entries, LastID: good.LastID, Groups: []StreamGroup{{Name: []byte("g")}, {Name: []byte("g")}}},
	} {
		body, _ := Verify(DumpStream(s))
		if _, err := Decode(body); err != ErrFormat {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	body, _ := Verify(DumpStream(good))
	if _, err := Decode(body); err != nil {
		t.Fatalf("good stream: %v", err)
	}
}
