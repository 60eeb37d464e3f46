package node

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rekv/rekv/drivers"
)

// Storage health. A write the store cannot persist is never acknowledged:
// its command gets an error. Beyond that, the node watches the store so
// that writes stop being attempted while it is failing: every second it
// asks the driver's Check (Badger: the data directory is there, on a file
// system mounted read-write with enough free space, its last sync did not
// fail and its background work has not failed), and when a command fails
// on a storage error, or while the store is marked failed, it also tries a
// probe write, synced to the disk.
// A failure marks the store failed in the network front (write commands
// get MISCONF, reads go on, INFO shows it, the log says it once); the
// first probe that succeeds with Check passing marks it healthy again.
//
// A store over the network (a drivers.Reconnector: TiKV) is also probed
// every second, since a command waits out the client's back-off (up to
// tens of seconds) before it fails; a probe that gets no answer within
// the store's request timeout (storage.tikv.request_timeout, at least
// minProbeTimeout) fails: as long as a command may wait before it gives
// up. A shorter limit failed probes queued behind a big command's long
// commit (the in-process mock under the race detector: 10-15 s), marking
// a working store failed.
//
// The client may be what fails, not the store: client-go marks a store
// it lost unreachable and, when the store does not answer gRPC health
// checks (the TiKV-protocol store of ../shared/tikv), never marks it
// reachable again; its requests then wait out their deadline while a new
// client writes at once. So while a probe has been running for stuckAfter
// (or the store is marked failed), the loop also asks the driver to
// Renew, every renewEvery (up to maxRenewing tries at a time): connect a
// new client and write through it within renewTimeout. When that write
// succeeds while the old
// client's probe is still running (or the store is still marked failed),
// the new client replaces the old one and the store is marked healthy:
// writes are accepted again within about stuckAfter + renewEvery of the
// store serving again, instead of after the old client's deadlines. A
// client merely busy is kept: its probe can wait behind a 100 MiB value's
// transfer on its own connections while a new client writes at once, but
// the store keeps answering its other requests meanwhile, and Renew keeps
// a client the store answered during the try (drivers/tikv).

// probeKey is the system key the probe writes.
var probeKey = []byte{drivers.SystemPrefix, 'h', 'e', 'a', 'l', 't', 'h'}

// minProbeTimeout is the least a probe waits; stuckAfter is how long a
// probe runs before the loop tries a new client, renewEvery the least
// time between two tries, renewTimeout the limit of one.
const (
	minProbeTimeout = 5 * time.Second
	stuckAfter      = time.Second
	renewEvery      = time.Second
	renewTimeout    = 3 * time.Second
	maxRenewing     = 3
)

// renewal is the outcome of one Renew.
type renewal struct {
	renewed bool
	err     error
}

// watchStorage runs until stop: the health loop above.
func (n *Node) watchStorage(stop <-chan struct{}) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	rc, _ := n.drv.(drivers.Reconnector)
	var lastProbe, lastRenew time.Time
	// Renews in flight report on renewed: one starts every renewEvery
	// while the store is stuck, up to maxRenewing at a time, so when the
	// store serves again one started less than renewEvery before writes
	// (one at a time, a try started just before could be waited out to
	// its renewTimeout: 3.1 s after a 4 s pause, once in CI).
	renewed := make(chan renewal, maxRenewing)
	renewing := 0
	for {
		probe := false
		select {
		case <-stop:
			return
		case <-n.suspect:
			probe = true
		case now := <-t.C:
			probe = n.net.StorageFailed() != "" || rc != nil && now.Sub(lastProbe) >= time.Second
		case r := <-renewed:
			renewing--
			if r.renewed {
				n.dropProbe() // the old client's probe is not waited for
				n.log.Warn("storage: connected to it afresh: the old client still failed where a new one wrote")
				n.net.SetStorageFailed(nil)
			} else if r.err != nil {
				n.log.Debug("storage: a new client failed too", "err", r.err)
			}
			continue
		}
		if probe {
			lastProbe = time.Now()
		}
		err := n.checkStorage(probe)
		switch {
		case errors.Is(err, errProbeRunning):
		case err != nil:
			n.net.SetStorageFailed(err)
		case probe:
			n.net.SetStorageFailed(nil)
		}
		if rc != nil && renewing < maxRenewing && n.stuck() && time.Since(lastRenew) >= renewEvery {
			lastRenew = time.Now()
			renewing++
			go func() {
				ok, err := rc.Renew(renewTimeout, n.stuck)
				renewed <- renewal{ok, err}
			}()
		}
	}
}

// stuck reports whether the store is marked failed or a probe has run
// for stuckAfter: when a new client is tried.
func (n *Node) stuck() bool {
	if n.net.StorageFailed() != "" {
		return true
	}
	since := n.probeSince.Load()
	return since != 0 && time.Since(time.Unix(0, since)) >= stuckAfter
}

// suspectStorage is actors.Options.StorageError: a command failed on a
// storage error; the health loop probes at once.
func (n *Node) suspectStorage(error) {
	select {
	case n.suspect <- struct{}{}:
	default:
	}
}

// checkStorage asks the driver's Check and, with probe, writes the probe
// key (a panic inside the driver counts as a failure).
func (n *Node) checkStorage(probe bool) (err error) {
	syncer, _ := n.drv.(drivers.Syncer)
	if c, ok := n.drv.(drivers.Checker); ok {
		if err := c.Check(); err != nil {
			// A failed sync is reported until a sync succeeds: the
			// probe tries one.
			if !probe || syncer == nil || syncer.Sync() != nil {
				return err
			}
			if err := c.Check(); err != nil {
				return err
			}
		}
	}
	if !probe {
		return nil
	}
	if _, network := n.drv.(drivers.Reconnector); network {
		return n.probeWithin(max(minProbeTimeout, n.cfg.Storage.TiKV.RequestTimeout))
	}
	return n.probe(syncer)
}

// errProbeRunning is a probe still running within its time limit: no
// verdict yet.
var errProbeRunning = errors.New("storage probe still running")

// probeWithin runs the probe with a time limit. It waits at most a
// quarter of a second for it (the loop goes on meanwhile: a running
// probe gives errProbeRunning) and fails it once it ran past limit; one
// left running past that is waited for by the next, which fails
// meanwhile.
func (n *Node) probeWithin(limit time.Duration) error {
	if n.probing == nil {
		ch := make(chan error, 1) // the goroutine keeps its own: the loop may drop n.probing
		n.probing = ch
		n.probeSince.Store(time.Now().UnixNano())
		go func() { ch <- n.probe(nil) }()
	}
	select {
	case err := <-n.probing:
		n.dropProbe()
		return concise(err)
	case <-time.After(250 * time.Millisecond):
		if time.Since(time.Unix(0, n.probeSince.Load())) < limit {
			return errProbeRunning
		}
		return fmt.Errorf("storage did not answer a probe write within %v", limit)
	}
}

// dropProbe forgets the probe running, answered or not.
func (n *Node) dropProbe() {
	n.probing = nil
	n.probeSince.Store(0)
}

// probe writes the probe key, and syncs it with syncer when not nil (a
// panic inside the driver counts as a failure).
func (n *Node) probe(syncer drivers.Syncer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("storage probe panicked: %v", p)
		}
	}()
	tx, err := n.drv.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Set(probeKey, []byte(time.Now().UTC().Format(time.RFC3339Nano))); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil && !errors.Is(err, drivers.ErrConflict) {
		return err
	}
	if syncer != nil { // the write must reach the disk, not only the page cache
		return syncer.Sync()
	}
	return nil
}

// concise keeps the first line of a probe's error, at most 200 bytes: a
// client's error can run to pages of retries, and it goes into MISCONF
// replies and INFO.
func concise(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	return errors.New(msg)
}
