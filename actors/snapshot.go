package actors

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/resp"
)

// Snapshot reads (shared store).
//
// On a store shared with other nodes every read is a round trip to it,
// and a shard that ran its reads one after another would make its clients
// wait for each other's round trips. So a shard runs a read on a
// goroutine of its own, at a snapshot the shard chose in its order:
//
//   - The shard first commits its open group, then asks the store for a
//     stamp (drivers.Snapshotter.ReadStamp) without waiting for it: the
//     snapshot holds every write of this shard's earlier commands, and
//     every write committed anywhere before the stamp was asked, so every
//     write acknowledged before the read arrived.
//   - Before the shard runs anything else it waits for the stamp, so
//     later commands begin their transactions after it was issued and the
//     read sees none of them: a client's reads and writes on a key still
//     apply in the order it sent them.
//   - Reads that arrived before a stamp was asked share it, while the
//     shard has run nothing else since: one stamp for a burst of reads.
//     A read that arrived later, or after anything else, asks anew.
//
// A shard that only reads therefore never waits for the store: its reads'
// round trips, stamps included, overlap. Replies come back in any order;
// each client puts its own in pipeline order. Reads run this way touch
// nothing of the shard's but its access clock, which takes a lock. They
// run on maxSnapshotReads goroutines: a shard with more to start waits
// for one to end.

// maxSnapshotReads bounds the snapshot reads running at once.
const maxSnapshotReads = 256

// stamp is a snapshot asked for at asked; wait returns it.
type stamp struct {
	wait  func() (uint64, error)
	asked time.Time
}

// snapshotRead reports whether req runs as a snapshot read: a read-only
// command of one shard that does not block, track keys (its tracking must
// be in the shard's order) or wait on anything.
func snapshotRead(req *Request) bool {
	if len(req.Shards) != 1 || req.NoBlock || req.wait != nil || req.Track {
		return false
	}
	return req.Spec.Flags&(command.Write|command.Blocking|command.Keyspace|command.AllShards|command.Conn|command.Transaction) == 0
}

// readAt runs req, a snapshotRead, on a goroutine at a snapshot asked for
// in the shard's order (see above). The caller holds s.
func (s *shard) readAt(req *Request) {
	e := s.e
	if s.snap == nil || !req.arrived.Before(s.snap.asked) {
		s.flush()
		s.snap = &stamp{asked: time.Now()}
		s.snap.wait = e.snaps.ReadStamp()
	}
	s.cacheFns() // made here, read by the reader
	e.reads.Add(1)
	e.readJobs <- readJob{req: req, snap: s.snap, shard: s.idx}
}

// readJob is a snapshot read handed to a reader.
type readJob struct {
	req   *Request
	snap  *stamp
	shard int
}

// startReaders starts the goroutines that run snapshot reads: long-lived,
// so their stacks stay grown to what a read through the driver needs.
func (e *Engine) startReaders() {
	e.readJobs = make(chan readJob)
	for range maxSnapshotReads {
		go func() {
			for j := range e.readJobs {
				if ts, err := j.snap.wait(); err != nil {
					e.failRead(j.req, err)
				} else {
					j.req.at = ts
					e.execute(j.req, j.shard)
				}
				e.reads.Done()
			}
		}()
	}
}

// settle waits for the stamp the shard's last reads share, if any, before
// the shard runs anything else (see above). The caller holds s.
func (s *shard) settle() {
	if s.snap != nil {
		_, _ = s.snap.wait() // an error reached the reads
		s.snap = nil
	}
}

// failRead answers a snapshot read whose stamp could not be had with the
// storage error, as a transaction that failed to begin would.
func (e *Engine) failRead(req *Request, err error) {
	if e.storeErr != nil {
		e.storeErr(err)
	}
	w := resp.NewWriter(req.Proto)
	command.Reply(w, err, req.Spec.FullName(), e.log)
	req.reply(w.Bytes(), err)
}
