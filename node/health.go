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
// a working store failed and reconnecting under that commit. When the store has been failing for reconnectAfter,
// the node drops its client and connects afresh (then again every
// reconnectAfter while it fails): the client may be what still fails
// after the store came back (drivers.Reconnector), and the commands still
// waiting on the old client fail at once with TRYAGAIN.

// probeKey is the system key the probe writes.
var probeKey = []byte{drivers.SystemPrefix, 'h', 'e', 'a', 'l', 't', 'h'}

// minProbeTimeout is the least a probe waits; reconnectAfter is how long
// a network store fails before the node reconnects.
const (
	minProbeTimeout = 5 * time.Second
	reconnectAfter  = 5 * time.Second
)

// watchStorage runs until stop: the health loop above.
func (n *Node) watchStorage(stop <-chan struct{}) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	rc, _ := n.drv.(drivers.Reconnector)
	var lastProbe, failingSince time.Time
	reconnects := 0
	for {
		probe := false
		select {
		case <-stop:
			return
		case <-n.suspect:
			probe = true
		case now := <-t.C:
			probe = n.net.StorageFailed() != "" || rc != nil && now.Sub(lastProbe) >= time.Second
		}
		if probe {
			lastProbe = time.Now()
		}
		err := n.checkStorage(probe)
		switch {
		case err != nil:
			n.net.SetStorageFailed(err)
			if failingSince.IsZero() {
				failingSince = time.Now()
			}
			if rc != nil && time.Since(failingSince) >= reconnectAfter {
				if reconnects == 0 {
					n.log.Warn("storage: connecting to it afresh", "failing_for", time.Since(failingSince).Round(time.Second).String())
				}
				reconnects++
				if rerr := rc.Reconnect(); rerr != nil {
					n.log.Debug("storage: reconnect failed", "err", rerr)
				} else {
					n.probing = nil // a probe on the old client is not waited for
				}
				failingSince = time.Now() // the next one after another reconnectAfter
			}
		case probe:
			n.net.SetStorageFailed(nil)
			failingSince, reconnects = time.Time{}, 0
		}
	}
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

// probeWithin runs the probe with a time limit; one left running past it
// is waited for by the next, which fails meanwhile.
func (n *Node) probeWithin(limit time.Duration) error {
	if n.probing == nil {
		ch := make(chan error, 1) // the goroutine keeps its own: the loop may drop n.probing
		n.probing = ch
		go func() { ch <- n.probe(nil) }()
	}
	select {
	case err := <-n.probing:
		n.probing = nil
		return concise(err)
	case <-time.After(limit):
		return fmt.Errorf("storage did not answer a probe write within %v", limit)
	}
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
