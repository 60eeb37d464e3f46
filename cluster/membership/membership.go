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
	Now     func() time.Time
	Log     *slog.Logger
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
	lastSync   atomic.Int64 // unix ms of the last successful sync
	failing    bool         // the last sync failed (logged once), owned by loop
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
	if err := m.syncRetry(true); err != nil {
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

// Healthy reports whether the node's last sync is within its lease term:
// past that, the other nodes may have taken its slots.
func (m *Membership) Healthy() bool {
	return m.o.Now().UnixMilli()-m.lastSync.Load() < m.o.Term.Milliseconds()
}

// Leave removes the node from the cluster: its record goes and its slots
// are spread over the others at once (not at its lease's end).
func (m *Membership) Leave() error {
	var err error
	m.closeOnce.Do(func() {
		close(m.stop)
		<-m.done
		if err = m.syncRetry(false); err != nil {
			err = fmt.Errorf("cluster: leave: %w", err)
		}
	})
	return err
}

func (m *Membership) loop() {
	defer close(m.done)
	t := time.NewTicker(m.o.Interval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		err := m.syncRetry(true)
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
	now := m.o.Now().UnixMilli()
	tx, err := m.drv.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	self := m.o.Self
	self.Until = now + m.o.Term.Milliseconds()
	members := map[string]cluster.Member{}
	start, end := codec.ClusterMembers()
	var stale [][]byte
	err = tx.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		id := string(k[len(start):])
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
		m.lastSync.Store(now)
		m.state.Store(&cluster.State{Self: self, Members: members, Map: &cluster.Map{}})
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
	m.lastSync.Store(now)
	m.state.Store(&cluster.State{Self: self, Members: members, Map: next})
	return nil
}
