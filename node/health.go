package node

import (
	"errors"
	"fmt"
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

// probeKey is the system key the probe writes.
var probeKey = []byte{drivers.SystemPrefix, 'h', 'e', 'a', 'l', 't', 'h'}

// watchStorage runs until stop: the health loop above.
func (n *Node) watchStorage(stop <-chan struct{}) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		probe := false
		select {
		case <-stop:
			return
		case <-n.suspect:
			probe = true
		case <-t.C:
			probe = n.net.StorageFailed() != ""
		}
		err := n.checkStorage(probe)
		switch {
		case err != nil:
			n.net.SetStorageFailed(err)
		case probe:
			n.net.SetStorageFailed(nil)
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
