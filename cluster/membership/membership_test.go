package membership

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers/badger"
)

// clock is a fake clock the tests move by hand.
type clock struct{ ms atomic.Int64 }

func (c *clock) now() time.Time      { return time.UnixMilli(c.ms.Load()) }
func (c *clock) add(d time.Duration) { c.ms.Add(d.Milliseconds()) }
func member(id string, port int) cluster.Member {
	return cluster.Member{ID: id, IP: "127.0.0.1", Port: port}
}

func TestMembership(t *testing.T) {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	c := &clock{}
	c.ms.Store(1_000_000)
	join := func(id string, port int) *Membership {
		t.Helper()
		// No ticks: the test syncs by hand.
		m, err := Join(drv, Options{Self: member(id, port), Term: 5 * time.Second, Interval: time.Hour, Now: c.now})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	sync := func(ms ...*Membership) {
		t.Helper()
		for _, m := range ms {
			if err := m.syncRetry(true); err != nil {
				t.Fatal(err)
			}
		}
	}
	a := join("a", 7001)
	if n := a.State().Map.Count("a"); n != cluster.Slots {
		t.Fatalf("a alone owns %d slots", n)
	}
	b, cc := join("b", 7002), join("c", 7003)
	sync(a, b, cc)
	for _, m := range []*Membership{a, b, cc} {
		st := m.State()
		if len(st.Members) != 3 || st.Map.Epoch != cc.State().Map.Epoch {
			t.Fatalf("%s sees %d members, epoch %d", st.Self.ID, len(st.Members), st.Map.Epoch)
		}
		if n := st.Map.Count(st.Self.ID); n < cluster.Slots/3 || n > cluster.Slots/3+1 {
			t.Fatalf("%s owns %d slots", st.Self.ID, n)
		}
	}
	slot := 0
	for a.State().Map.Owners[slot] != "b" {
		slot++
	}
	if own, ok := a.State().Owner(slot); !ok || own.Port != 7002 {
		t.Fatalf("owner of slot %d: %+v %v", slot, own, ok)
	}

	// b leaves: its slots go to a and c at once.
	if err := b.Leave(); err != nil {
		t.Fatal(err)
	}
	sync(a, cc)
	if n := a.State().Map.Count("a") + a.State().Map.Count("c"); n != cluster.Slots || len(a.State().Members) != 2 {
		t.Fatalf("after b left: a and c own %d slots, %d members", n, len(a.State().Members))
	}

	// c stops renewing (killed): its slots move when its lease ends, not before.
	c.add(4 * time.Second)
	sync(a)
	if a.State().Map.Count("c") == 0 {
		t.Fatal("c lost its slots before its lease ended")
	}
	c.add(2 * time.Second)
	sync(a)
	if n := a.State().Map.Count("a"); n != cluster.Slots || len(a.State().Members) != 1 {
		t.Fatalf("after c's lease ended: a owns %d, %d members", n, len(a.State().Members))
	}

	// A new process at an address replaces the record there at once,
	// while the old one's lease would still run.
	e := join("e", 7005)
	sync(a, e)
	d := join("d", 7005)
	sync(a, d)
	if _, ok := a.State().Members["e"]; ok || a.State().Map.Count("e") != 0 || a.State().Map.Count("d") != cluster.Slots/2 {
		t.Fatalf("d at e's address: members %v, e owns %d, d %d", a.State().Members, a.State().Map.Count("e"), a.State().Map.Count("d"))
	}
	if err := a.Leave(); err != nil {
		t.Fatal(err)
	}
	if err := d.Leave(); err != nil {
		t.Fatal(err)
	}
}

// TestMembersWithoutSlots: in shared mode (NoSlots) nodes keep member
// records, and so each other's bus addresses, but no slot map.
func TestMembersWithoutSlots(t *testing.T) {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	join := func(id string, port, bus int) *Membership {
		self := cluster.Member{ID: id, IP: "127.0.0.1", Port: port, BusPort: bus}
		m, err := Join(drv, Options{Self: self, NoSlots: true, Interval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := join("a", 7001, 17001), join("b", 7002, 0)
	if err := a.syncRetry(true); err != nil {
		t.Fatal(err)
	}
	if got := a.Peers(); len(got) != 0 {
		t.Fatalf("a's peers: %v (b has no bus)", got)
	}
	if got := b.Peers(); len(got) != 1 || got["a"] != "127.0.0.1:17001" {
		t.Fatalf("b's peers: %v", got)
	}
	if len(a.State().Members) != 2 || len(a.State().Map.Ranges()) != 0 {
		t.Fatalf("a's state: %+v", a.State())
	}
	tx, err := drv.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Get(codec.ClusterMapKey()); err == nil {
		t.Fatal("a slot map was written without slots")
	}
	if err := b.Leave(); err != nil {
		t.Fatal(err)
	}
	if err := a.syncRetry(true); err != nil || len(a.State().Members) != 1 {
		t.Fatalf("after b left: %v, %d members", err, len(a.State().Members))
	}
	if err := a.Leave(); err != nil {
		t.Fatal(err)
	}
}
