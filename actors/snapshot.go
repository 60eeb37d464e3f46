package actors

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// Snapshot reads (shared store).
//
// On a store shared with other nodes every read is a round trip to it,
// and a shard that ran its reads one after another would make its clients
// wait for each other's round trips. So a shard hands a read to a reader
// goroutine, which runs it at a snapshot the shard chose in its order:
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
//   - Reads that arrived before a stamp was asked share it, of any shard
//     that ran nothing else since the stamp was asked for (the engine
//     keeps the latest stamp): one stamp for a burst of reads; the flush
//     records read at it are kept for the reads that start after
//     (stamp.records; reads starting together each read them). A read
//     that arrived later, or on a shard that ran something after, asks
//     anew.
//
// A shard that only reads therefore never waits for the store: its reads'
// round trips, stamps included, overlap. Replies come back in any order;
// each client puts its own in pipeline order. Reads run this way touch
// nothing of the shard's but its access clock, which takes a lock. They
// run on maxSnapshotReads goroutines: a shard with more to start waits
// for one to end.

// maxSnapshotReads bounds the snapshot reads running at once.
const maxSnapshotReads = 256

// stamp is a snapshot asked for at asked; wait returns it. records are
// the databases' flush records read at it, which every read at the stamp
// shares (the first to read one keeps it).
type stamp struct {
	wait    func() (uint64, error)
	asked   time.Time
	records store.SnapshotRecords
}

// stampAfter returns the latest stamp if it was asked for after t, else
// asks for a new one, which becomes the latest: reads of every shard that
// qualify share one stamp.
func (e *Engine) stampAfter(t time.Time) *stamp {
	e.stampMu.Lock()
	defer e.stampMu.Unlock()
	if st := e.latest; st != nil && t.Before(st.asked) {
		return st
	}
	st := &stamp{asked: time.Now()}
	st.wait = e.snaps.ReadStamp()
	e.latest = st
	return st
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
	if s.group != nil || len(s.queued) > 0 {
		s.flush()
		s.noteRan()
	}
	after := req.arrived
	if s.ran.After(after) {
		after = s.ran
	}
	st := e.stampAfter(after)
	if len(s.snaps) == 0 || s.snaps[len(s.snaps)-1] != st {
		s.snaps = append(s.snaps, st)
	}
	s.cacheFns() // made here, read by the reader
	e.reads.Add(1)
	e.readJobs <- readJob{req: req, snap: st, shard: s.idx}
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
					j.req.at, j.req.records = ts, &j.snap.records
					e.execute(j.req, j.shard)
				}
				e.reads.Done()
			}
		}()
	}
}

// settle waits for the stamps the shard's reads used since it last ran
// anything else, before it does (see above), and notes when it ran. The
// caller holds s.
func (s *shard) settle() {
	for i, st := range s.snaps {
		_, _ = st.wait() // an error reached the reads
		s.snaps[i] = nil
	}
	s.snaps = s.snaps[:0]
}

// noteRan notes that s has run something other than a snapshot read: later
// reads need a stamp asked for after it. The caller holds s.
func (s *shard) noteRan() { s.ran = time.Now() }

// failRead answers a snapshot read whose stamp could not be had with the
// storage error, as a transaction that failed to begin would.
func (e *Engine) failRead(req *Request, err error) {
	if e.storeErr != nil {
		e.storeErr(err)
	}
	e.replyError(req, err)
}

// replyError answers req with err as a RESP error (command.Reply).
func (e *Engine) replyError(req *Request, err error) {
	w := resp.NewWriter(req.Proto)
	command.Reply(w, err, req.Spec.FullName(), e.log)
	req.reply(w.Bytes(), err)
}
