package repl

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// FAILOVER, as Redis 7.0: the master pauses writes, waits until a replica
// (the one named, or the first) has acknowledged the whole stream, then
// follows it with PSYNC <its own replid> <offset+1> FAILOVER; the replica,
// hearing its master ask that, promotes itself (its old history is now
// its replid2) and answers +CONTINUE, so neither side loads anything.
// Writes resume once the hand-over succeeded or failed.

// failoverRun is a FAILOVER in progress.
type failoverRun struct {
	o         command.FailoverOptions
	state     atomic.Value // "waiting-for-sync", "failover-in-progress"
	abort     chan struct{}
	abortOnce sync.Once
	// result hears the failover PSYNC's outcome from the link.
	result chan error
}

// errFailoverTimeout ends a FAILOVER whose replica never caught up.
var errFailoverTimeout = errors.New("replica never caught up before timeout")

// Failover starts a FAILOVER (or aborts the one in progress).
func (r *Replica) Failover(o command.FailoverOptions) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if o.Abort {
		if r.fo == nil {
			return rerr.Errorf("ERR No failover in progress.")
		}
		r.fo.abortOnce.Do(func() { close(r.fo.abort) })
		return nil
	}
	if r.st.Replica {
		return rerr.Errorf("ERR FAILOVER is not valid when server is a replica.")
	}
	m := r.master.Load()
	if m == nil || m.online() == 0 {
		return rerr.Errorf("ERR FAILOVER requires connected replicas.")
	}
	if r.fo != nil {
		return rerr.Errorf("ERR FAILOVER already in progress.")
	}
	if o.Host != "" {
		p := m.find(o.Host, o.Port)
		if p == nil {
			return rerr.Errorf("ERR FAILOVER target HOST and PORT is not a replica.")
		}
		if p.state.Load() != "online" {
			return rerr.Errorf("ERR FAILOVER target replica is not online.")
		}
	}
	fo := &failoverRun{o: o, abort: make(chan struct{}), result: make(chan error, 1)}
	fo.state.Store("waiting-for-sync")
	r.fo, r.foSent = fo, false
	if r.o.PauseWrites != nil {
		r.o.PauseWrites(true)
	}
	go r.runFailover(fo, m)
	return nil
}

// runFailover waits for the replica, then hands over to it.
func (r *Replica) runFailover(fo *failoverRun, m *master) {
	var deadline <-chan time.Time
	if fo.o.Timeout > 0 {
		t := time.NewTimer(fo.o.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var asked time.Time
	host, port := "", 0
	for host == "" {
		if p := m.caughtUp(fo.o.Host, fo.o.Port, r.offset.Load()); p != nil {
			host, port = p.addr, p.port
			break
		}
		if time.Since(asked) >= 100*time.Millisecond {
			m.bl.appendRaw(getAckCmd)
			asked = time.Now()
		}
		select {
		case <-fo.abort:
			r.endFailover(fo, errors.New("failover manually aborted"))
			return
		case <-deadline:
			if !fo.o.Force {
				r.endFailover(fo, errFailoverTimeout)
				return
			}
			host, port = fo.o.Host, fo.o.Port
		case <-tick.C:
		}
	}
	fo.state.Store("failover-in-progress")
	r.o.Log.Info("replication: FAILOVER: following the new master", "host", host, "port", port, "offset", r.offset.Load())
	r.mu.Lock()
	r.synced = true // this node's data is its own history: PSYNC may continue it
	r.mu.Unlock()
	if _, err := r.Follow(host, port); err != nil {
		r.endFailover(fo, err)
		return
	}
	var err error
	select {
	case err = <-fo.result:
	case <-fo.abort:
		err = errors.New("failover manually aborted")
	case <-time.After(r.timeout()):
		err = errors.New("the new master did not answer the failover PSYNC")
	}
	if err != nil {
		_, _ = r.Follow("", 0) // a master again
	}
	r.endFailover(fo, err)
}

// endFailover clears the FAILOVER and lets writes go on.
func (r *Replica) endFailover(fo *failoverRun, err error) {
	r.mu.Lock()
	if r.fo == fo {
		r.fo = nil
	}
	r.mu.Unlock()
	if r.o.PauseWrites != nil {
		r.o.PauseWrites(false)
	}
	if err != nil {
		r.o.Log.Warn("replication: FAILOVER ended", "err", err)
		return
	}
	r.o.Log.Info("replication: FAILOVER done: this node is a replica now")
}

// failoverPSync returns, once, the FAILOVER whose PSYNC the next link
// sends.
func (r *Replica) failoverPSync() *failoverRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fo != nil && r.fo.state.Load() == "failover-in-progress" && !r.foSent {
		r.foSent = true
		return r.fo
	}
	return nil
}

// failoverState is INFO's master_failover_state.
func (r *Replica) failoverState() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fo == nil {
		return "no-failover"
	}
	return r.fo.state.Load().(string)
}

// online returns how many replicas are online.
func (m *master) online() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for p := range m.replicas {
		if p.state.Load() == "online" {
			n++
		}
	}
	return n
}

// find returns the replica at host:port (its address and listening port).
func (m *master) find(host string, port int) *peer {
	m.mu.Lock()
	defer m.mu.Unlock()
	for p := range m.replicas {
		if p.addr == host && p.port == port {
			return p
		}
	}
	return nil
}

// caughtUp returns the replica (at host:port, or any when host is "")
// online and acknowledged up to offset at.
func (m *master) caughtUp(host string, port int, at int64) *peer {
	m.mu.Lock()
	defer m.mu.Unlock()
	for p := range m.replicas {
		if (host == "" || p.addr == host && p.port == port) && p.state.Load() == "online" && p.ack.Load() >= at {
			return p
		}
	}
	return nil
}
