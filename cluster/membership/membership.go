package membership

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// Options configure a node's membership.
type Options struct {
	// Self is this node: its id (NewID) and announced address. Until is
	// set by each renewal.
	Self cluster.Member
	// Term is how long a renewal holds the node's lease (default 5 s):
	// a node that stops renewing loses its slots Term after its last
	// renewal.
	Term time.Duration
	// Interval is how often the node renews its lease and reads the map
	// (default Term/5).
	Interval time.Duration
	// NoSlots keeps the members only (shared mode without cluster mode:
	// the nodes need each other's addresses for the bus, not slots): the
	// node neither reads nor writes the slot map.
	NoSlots bool
	// Gained, if set, runs before the node starts serving slots it did
	// not serve (the node's caches of them may be stale: it empties
	// them); on an error the node goes on serving what it served, and
	// tries again at its next renewal.
	Gained func() error
	// Apply, if set, runs once the node read a new map, before it says
	// it applied it (Member.Applied): it returns once every write begun
	// under the old map finished (the engine's commit barrier).
	Apply func()
	Now   func() time.Time
	Log   *slog.Logger
}

// NewID returns a random node id: 40 hex digits, as Redis's.
func NewID() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// Membership keeps a node in the cluster: it renews the node's lease,
// reads the members and the slot map, and rebalances the map when the
// live members changed (see package cluster).
type Membership struct {
	drv   drivers.Driver
	o     Options
	state atomic.Pointer[cluster.State]
	// Rebalances counts the map changes this node wrote.
	Rebalances atomic.Int64
	applied    atomic.Uint64 // the newest map epoch Apply ran for
	failing    bool          // the last sync failed (logged once), owned by loop
	stop       chan struct{}
	done       chan struct{}
	closeOnce  sync.Once
}

// Join registers the node, takes its share of the slots and keeps it in
// the cluster until Leave. It fails when the store cannot be reached.
func Join(drv drivers.Driver, o Options) (*Membership, error) {
	if o.Term <= 0 {
		o.Term = 5 * time.Second
	}
	if o.Interval <= 0 {
		o.Interval = o.Term / 5
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	m := &Membership{drv: drv, o: o, stop: make(chan struct{}), done: make(chan struct{})}
	if err := m.syncApply(); err != nil {
		return nil, fmt.Errorf("cluster: join: %w", err)
	}
	o.Log.Info("cluster: joined", "id", o.Self.ID, "addr", o.Self.Addr(), "bus", o.Self.BusAddr(), "slots", m.State().Map.Count(o.Self.ID),
		"members", len(m.State().Members), "epoch", m.State().Map.Epoch)
	go m.loop()
	return m, nil
}

// State returns the newest state this node read.
func (m *Membership) State() *cluster.State { return m.state.Load() }

// Peers returns the bus addresses of the other live nodes, by id.
func (m *Membership) Peers() map[string]string {
	st := m.State()
	out := make(map[string]string, len(st.Members))
	for id, mem := range st.Members {
		if id != st.Self.ID && mem.BusPort > 0 {
			out[id] = mem.BusAddr()
		}
	}
	return out
}

// Healthy reports whether the node's lease still holds (State.Deadline):
// past it, the other nodes may have taken its slots.
func (m *Membership) Healthy() bool {
	st := m.State()
	return st != nil && m.o.Now().UnixMilli() < st.Deadline
}

// Until returns the end of the node's lease by the store's clock (unix
// ms; 0 before it joined): the fence of its writes (drivers.Fencer), so
// none commits once other nodes may take its slots.
func (m *Membership) Until() int64 {
	if st := m.State(); st != nil {
		return st.Self.Until
	}
	return 0
}

// Leave removes the node from the cluster: its record goes and its slots
// are spread over the others at once (not at its lease's end).
func (m *Membership) Leave() error {
	var err error
	m.closeOnce.Do(func() {
		close(m.stop)
		<-m.done
		if st := m.State(); !m.o.NoSlots && st != nil {
			// Serve nothing more, and let the writes under way finish,
			// before the others may serve this node's slots.
			quit := *st
			quit.Serving = &cluster.Slotset{}
			m.state.Store(&quit)
			if m.o.Apply != nil {
				m.o.Apply()
			}
		}
		if err = m.syncRetry(false); err != nil {
			err = fmt.Errorf("cluster: leave: %w", err)
		}
	})
	return err
}

func (m *Membership) loop() {
	defer close(m.done)
	t := time.NewTimer(m.next())
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		err := m.syncApply()
		t.Reset(m.next())
		switch {
		case err != nil && !m.failing:
			m.failing = true
			m.o.Log.Warn("cluster: cannot renew membership", "err", err)
		case err == nil && m.failing:
			m.failing = false
			m.o.Log.Info("cluster: membership renewed again")
		}
	}
}

// next is how long the loop waits for its next renewal: the interval, or
// a tenth of it while slots the map gives this node wait for the other
// nodes to apply that map (the clients of those slots get TRYAGAIN
// meanwhile).
func (m *Membership) next() time.Duration {
	if st := m.State(); st != nil && !m.o.NoSlots {
		for s, o := range st.Map.Owners {
			if o == st.Self.ID && !st.Serves(s) {
				return max(m.o.Interval/10, time.Millisecond)
			}
		}
	}
	return m.o.Interval
}

// syncApply renews the node's membership; when that brought a new map, it
// applies it (Options.Apply) and renews again at once, so the nodes
// waiting for it to apply the map (to serve the slots they gained) see it
// without waiting for the next renewal.
func (m *Membership) syncApply() error {
	if err := m.syncRetry(true); err != nil {
		return err
	}
	epoch := m.State().Map.Epoch
	if m.o.NoSlots || epoch <= m.applied.Load() {
		return nil
	}
	if m.o.Apply != nil {
		m.o.Apply()
	}
	m.applied.Store(epoch)
	return m.syncRetry(true)
}

// syncRetry runs sync, again after a conflict with another node's.
func (m *Membership) syncRetry(present bool) error {
	var err error
	for range 8 {
		if err = m.sync(present); !errors.Is(err, drivers.ErrConflict) {
			return err
		}
	}
	return err
}

// sync runs one membership transaction: it renews this node's record (or
// deletes it, when leaving), deletes expired records and other records at
// this node's address (an earlier process here), reads the map, and
// writes it rebalanced when the live members changed.
func (m *Membership) sync(present bool) error {
	local := m.o.Now().UnixMilli()
	tx, err := m.drv.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	drivers.Unfence(tx) // a lease that ended is renewed all the same
	now := local        // leases are written and judged by the store's clock
	if c, ok := tx.(drivers.Clocked); ok {
		now = c.StartMillis()
	}
	term := m.o.Term.Milliseconds()
	deadline := local + term - term/10
	self := m.o.Self
	self.Until = now + term
	self.Applied = m.applied.Load()
	members := map[string]cluster.Member{}
	start, end := codec.ClusterMembers()
	var stale [][]byte
	found := false // this node's record, not deleted by another node
	err = tx.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		id := string(k[len(start):])
		found = found || id == self.ID
		mem, err := cluster.DecodeMember(id, v)
		if err != nil || id != self.ID && (mem.Until <= now || mem.Addr() == self.Addr()) {
			stale = append(stale, append([]byte(nil), k...))
			return true, nil
		}
		members[id] = mem
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, k := range stale {
		if err := tx.Delete(k); err != nil {
			return err
		}
	}
	if present {
		members[self.ID] = self
		err = tx.Set(codec.ClusterMemberKey(self.ID), self.Encode())
	} else {
		delete(members, self.ID)
		err = tx.Delete(codec.ClusterMemberKey(self.ID))
	}
	if err != nil {
		return err
	}
	if m.o.NoSlots {
		if err := tx.Commit(); err != nil {
			return err
		}
		m.state.Store(&cluster.State{Self: self, Members: members, Map: &cluster.Map{}, Deadline: deadline})
		return nil
	}
	old := &cluster.Map{}
	switch b, err := tx.Get(codec.ClusterMapKey()); {
	case err == nil:
		if old, err = cluster.DecodeMap(b); err != nil {
			return err
		}
	case !errors.Is(err, drivers.ErrNotFound):
		return err
	}
	next := cluster.Rebalance(old, slices.Collect(maps.Keys(members)))
	if next.Epoch != old.Epoch {
		if err := tx.Set(codec.ClusterMapKey(), next.Encode()); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if next.Epoch != old.Epoch {
		m.Rebalances.Add(1)
		m.o.Log.Info("cluster: slots rebalanced", "epoch", next.Epoch, "members", len(members), "mine", next.Count(self.ID))
	}
	// The slots served under the last map hold on only if the lease held
	// since: a node whose lease ended (its record gone, or renewed too
	// late) may have had its slots taken, written and handed back.
	prev := m.State()
	if prev != nil && (!found || now >= prev.Self.Until) {
		if m.o.Apply != nil && prev.Serving != nil {
			// Before the new lease is published (the fence of this node's
			// commits): serve nothing, and let the writes under way end,
			// fenced by the lease that ended.
			quit := *prev
			quit.Serving = &cluster.Slotset{}
			m.state.Store(&quit)
			m.o.Apply()
		}
		prev = nil
	}
	serving := serving(self, members, next, prev)
	if m.o.Gained != nil && gained(prev, serving) {
		if err := m.o.Gained(); err != nil {
			return fmt.Errorf("cluster: before serving new slots: %w", err)
		}
	}
	m.state.Store(&cluster.State{Self: self, Members: members, Map: next, Serving: serving, Deadline: deadline})
	return nil
}

// serving returns the slots self serves under map next: those it served
// under the map before (prev, nil if none), and all it owns once every
// other live member has applied next.
func serving(self cluster.Member, members map[string]cluster.Member, next *cluster.Map, prev *cluster.State) *cluster.Slotset {
	ready := true
	for id, mem := range members {
		if id != self.ID && mem.Applied < next.Epoch {
			ready = false
		}
	}
	out := &cluster.Slotset{}
	for s, o := range next.Owners {
		if o == self.ID && (ready || prev != nil && prev.Serves(s)) {
			out.Add(s)
		}
	}
	return out
}

// gained reports whether serving holds a slot prev did not serve.
func gained(prev *cluster.State, serving *cluster.Slotset) bool {
	for i, w := range serving {
		var had uint64
		if prev != nil && prev.Serving != nil {
			had = prev.Serving[i]
		}
		if w&^had != 0 {
			return true
		}
	}
	return false
}
