package membership

import (
	"sync"
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

// testStore returns an in-memory store, closed when the test ends, and a
// fake clock at 1,000 s.
func testStore(t *testing.T) (*badger.DB, *clock) {
	drv, err := badger.Open(badger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drv.Close() })
	c := &clock{}
	c.ms.Store(1_000_000)
	return drv, c
}

func TestMembership(t *testing.T) {
	drv, c := testStore(t)
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

// TestHandover: a node serves the slots it gains only once every other
// live node applied the map that moved them (after its commit barrier);
// a node whose lease ended serves nothing of its old share until the
// others applied the map again.
func TestHandover(t *testing.T) {
	drv, c := testStore(t)
	var applies, gains atomic.Int32
	// seen records, at each Apply of a node, the lease and the slots its
	// published state then had.
	type seen struct {
		until  int64
		served int
	}
	var seenMu sync.Mutex
	applied := map[string][]seen{}
	self := map[string]*Membership{}
	join := func(id string, port int) *Membership {
		t.Helper()
		apply := func() {
			applies.Add(1)
			seenMu.Lock()
			defer seenMu.Unlock()
			if m := self[id]; m != nil {
				n := 0
				for s := range cluster.Slots {
					if m.State().Serves(s) {
						n++
					}
				}
				applied[id] = append(applied[id], seen{m.State().Self.Until, n})
			}
		}
		m, err := Join(drv, Options{Self: member(id, port), Term: 5 * time.Second, Interval: time.Hour, Now: c.now,
			Apply: apply, Gained: func() error { gains.Add(1); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		seenMu.Lock()
		self[id] = m
		seenMu.Unlock()
		return m
	}
	syncApply := func(ms ...*Membership) {
		t.Helper()
		for _, m := range ms {
			if err := m.syncApply(); err != nil {
				t.Fatal(err)
			}
		}
	}
	served := func(m *Membership) int {
		n := 0
		for s := range cluster.Slots {
			if m.State().Serves(s) {
				if !m.State().Mine(s) {
					t.Fatalf("%s serves slot %d it does not own", m.State().Self.ID, s)
				}
				n++
			}
		}
		return n
	}
	a := join("a", 7001)
	if served(a) != cluster.Slots || gains.Load() != 1 {
		t.Fatalf("a alone serves %d slots (%d gains)", served(a), gains.Load())
	}
	b := join("b", 7002)
	if n := b.State().Map.Count("b"); n != cluster.Slots/2 || served(b) != 0 {
		t.Fatalf("b owns %d slots and serves %d before a applied the map", n, served(b))
	}
	if served(a) != cluster.Slots {
		t.Fatal("a stopped serving before it read the new map")
	}
	before := applies.Load()
	syncApply(a) // reads the map, runs its barrier, says so
	if applies.Load() != before+1 || a.State().Self.Applied != b.State().Map.Epoch {
		t.Fatalf("a applied %d times, record says epoch %d, map %d", applies.Load()-before, a.State().Self.Applied, b.State().Map.Epoch)
	}
	if served(a) != cluster.Slots/2 {
		t.Fatalf("a serves %d slots after applying the map", served(a))
	}
	gainsBefore := gains.Load()
	syncApply(b)
	if served(b) != cluster.Slots/2 || gains.Load() != gainsBefore+1 {
		t.Fatalf("b serves %d slots once a applied (%d gains)", served(b), gains.Load()-gainsBefore)
	}

	// b stops renewing; a takes its slots when its lease ends (b is not
	// waited for: its writes are fenced at its lease's end).
	c.add(6 * time.Second)
	syncApply(a)
	if served(a) != cluster.Slots {
		t.Fatalf("a serves %d slots after b's lease ended", served(a))
	}
	// b comes back: its record was deleted, so what it served before
	// does not count (it drains its writes under the old lease first); it
	// waits for a to apply the map that gives it slots again.
	oldUntil := b.State().Self.Until
	seenMu.Lock()
	applied["b"] = nil
	seenMu.Unlock()
	syncApply(b)
	seenMu.Lock()
	if len(applied["b"]) == 0 || applied["b"][0] != (seen{oldUntil, 0}) {
		t.Fatalf("b's first barrier after its lease ended saw %+v, want serving nothing under the old lease (%d)", applied["b"], oldUntil)
	}
	seenMu.Unlock()
	if n := b.State().Map.Count("b"); n == 0 || served(b) != 0 {
		t.Fatalf("b back owns %d slots and serves %d before a applied", n, served(b))
	}
	syncApply(a, b)
	if served(a)+served(b) != cluster.Slots {
		t.Fatalf("a and b serve %d + %d slots", served(a), served(b))
	}
}
