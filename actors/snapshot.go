package actors

import (
	"bytes"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers"
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
//     keeps the latest stamp): one stamp for a burst of reads. A read
//     that arrived later, or on a shard that ran something after, needs
//     a stamp asked anew.
//   - One stamp is asked for at a time, as the oracle's own clients batch
//     their requests: reads that need a new stamp while one is in flight
//     all wait for the next, asked when the one in flight comes. Under
//     load a stamp thus serves every read that arrived during the
//     previous one's round trip.
//   - When its stamp comes, one batch reads what the reads waiting for it
//     look up first — their databases' flush records and their keys'
//     metas, which hold small strings whole — into values the reads at
//     the stamp share (store.SnapshotValues): a burst of GETs costs one
//     stamp and one BatchGet, not one round trip each. A snapshot never
//     changes, so a value read there once serves every read there. The
//     flush records read at a stamp are kept for the reads that start
//     after (stamp.records).
//
// A shard that only reads therefore never waits for the store: its reads'
// round trips, stamps included, overlap. Replies come back in any order;
// each client puts its own in pipeline order. Reads run this way touch
// nothing of the shard's but its access clock, which takes a lock. They
// run on at most maxSnapshotReads goroutines (readerPool): a shard with
// more to start waits for one to end.

// maxSnapshotReads bounds the snapshot reads running at once.
const maxSnapshotReads = 256

// stamp is a snapshot asked for at asked; wait returns it. records are
// the databases' flush records read at it, which every read at the stamp
// shares (the first to read one keeps it).
type stamp struct {
	ready   chan struct{}          // closed once asked
	ask     func() (uint64, error) // set before ready closes
	asked   time.Time
	records store.SnapshotRecords
	// values are what the reads at the stamp look up first, fetched in
	// one batch for the reads that were waiting for it (runStamp).
	values store.SnapshotValues
	// mu guards jobs, the reads waiting for the stamp, and started: the
	// stamp came and its waiting reads were taken; later ones go to the
	// readers at once.
	mu      sync.Mutex
	jobs    []readJob
	started bool
	// came is set once the stamp came (runStamp): a shard need not wait
	// for it any more, nor keep it.
	came atomic.Bool
}

// wait returns the stamp once it was asked for and came.
func (st *stamp) wait() (uint64, error) {
	<-st.ready
	return st.ask()
}

// stampAfter returns a stamp asked for after t: the latest if it was, else
// the next, which it makes when there is none. One stamp is asked for at
// a time: the next is asked when the one in flight comes (returned), for
// every read that arrived meanwhile, as the oracle's clients batch their
// requests — reads of every shard that qualify share one stamp, and one
// batch of reads (runStamp).
func (e *Engine) stampAfter(t time.Time) *stamp {
	e.stampMu.Lock()
	defer e.stampMu.Unlock()
	if st := e.latest; st != nil && t.Before(st.asked) {
		return st
	}
	if e.next != nil {
		return e.next
	}
	st := &stamp{ready: make(chan struct{})}
	if e.inflight == nil {
		e.askFor(st)
	} else {
		e.next = st
	}
	return st
}

// askFor asks the store for st's stamp. The caller holds e.stampMu.
func (e *Engine) askFor(st *stamp) {
	st.asked = time.Now()
	st.ask = e.snaps.ReadStamp()
	e.latest, e.inflight = st, st
	close(st.ready)
}

// returned notes that st's stamp came: the next, if reads wait for one,
// is asked for now.
func (e *Engine) returned(st *stamp) {
	e.stampMu.Lock()
	defer e.stampMu.Unlock()
	if e.inflight != st {
		return
	}
	e.inflight = nil
	if n := e.next; n != nil {
		e.next = nil
		e.askFor(n)
	}
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
	if s.group != nil || len(s.queued) > 0 && s.queuedTouch(req) {
		s.flush()
		s.noteRan()
	}
	after := req.arrived
	if s.ran.After(after) {
		after = s.ran
	}
	st := e.stampAfter(after)
	if len(s.snaps) == 0 || s.snaps[len(s.snaps)-1] != st {
		s.snaps = append(s.pending(), st)
	}
	s.cacheFns() // made here, read by the reader
	e.reads.Add(1)
	j := readJob{req: req, snap: st, shard: s.idx}
	st.mu.Lock()
	if st.started {
		st.mu.Unlock()
		e.readers.hand(j)
		return
	}
	st.jobs = append(st.jobs, j)
	first := len(st.jobs) == 1
	st.mu.Unlock()
	if first {
		e.startStamp(st)
	}
}

// stampRunners is how many goroutines wait to run a stamp (runStamp).
// Stamps are asked one at a time, and each one's run lasts two round
// trips (the stamp, then its batch of values), so two or three overlap.
const stampRunners = 4

// startStamp runs runStamp(st) on an idle stamp runner, else on a new
// goroutine: never waiting. A runner is long-lived, so its stack stays
// grown to what the oracle's wait and client-go's BatchGet need; a new
// goroutine for every stamp grew its stack twice (newstack and
// copystack were 3.2% of a TiKV node's CPU under GET -P 1).
func (e *Engine) startStamp(st *stamp) {
	select {
	case e.stampRuns <- st:
	default:
		go e.runStamp(st)
	}
}

// runStamp waits for st, fetches in one batch what the reads waiting for
// it look up first (their databases' records and their keys' metas: all
// a GET of a small string reads), then hands them to the readers, which
// find those values without a round trip of their own.
func (e *Engine) runStamp(st *stamp) {
	ts, err := st.wait()
	st.came.Store(true)
	e.returned(st)
	st.mu.Lock()
	jobs := st.jobs
	st.jobs, st.started = nil, true
	st.mu.Unlock()
	if err == nil && len(jobs) > 1 {
		var keys, args [][]byte
		for _, j := range jobs {
			args = j.req.keys(args[:0])
			keys = e.markers.ReadKeys(j.req.DB, args, keys)
		}
		if err := st.values.Fetch(e.snaps, ts, keys); err != nil && !errors.Is(err, drivers.ErrConflict) {
			// The store did not answer (in time): each read would wait
			// as long again for its own. They get the error, as a read
			// whose own round trip failed.
			for _, j := range jobs {
				e.failRead(j.req, err)
				e.reads.Done()
			}
			return
		}
	}
	for _, j := range jobs {
		e.readers.hand(j)
	}
}

// readJob is a snapshot read handed to a reader.
type readJob struct {
	req   *Request
	snap  *stamp
	shard int
}

// runScratch is what the commands one goroutine runs one after the
// other keep from each to the next: a snapshot reader's Ctx, what its
// transactions leave (store.Spare) and its list of nested commands. Each
// read on a shared store allocated them anew: 690 of the 4,700 bytes a
// GET allocated, and 5 of its 50 allocations.
type runScratch struct {
	ctx    command.Ctx
	spare  store.Spare
	nested []command.CmdStat
	// w writes each read's reply, which arena keeps (a new writer and
	// its buffer each read were two allocations).
	w     *resp.Writer
	arena replyArena
}

// writer returns sc's reply writer, emptied, for protocol proto (a new
// one when sc is nil).
func (sc *runScratch) writer(proto int) *resp.Writer {
	if sc == nil {
		return resp.NewWriter(proto)
	}
	if sc.w == nil {
		sc.w = resp.NewWriter(proto)
	}
	sc.w.Reset(proto)
	return sc.w
}

// reply returns what w, sc's writer, holds as a slice no one else
// writes (w.Bytes() when sc is nil: w is the read's own).
func (sc *runScratch) reply(w *resp.Writer) []byte {
	if sc == nil {
		return w.Bytes()
	}
	return sc.arena.keep(w)
}

// startReaders starts the stamp runners and the pool of readers that
// run snapshot reads: long-lived, so their stacks stay grown to what a
// read through the driver needs.
func (e *Engine) startReaders() {
	e.stampRuns = make(chan *stamp)
	for range stampRunners {
		go func() {
			for st := range e.stampRuns {
				e.runStamp(st)
			}
		}()
	}
	e.readers = newReaderPool(maxSnapshotReads, e.runRead)
}

// runRead runs j, a snapshot read, on a reader with scratch sc.
func (e *Engine) runRead(j readJob, sc *runScratch) {
	if ts, err := j.snap.wait(); err != nil {
		e.failRead(j.req, err)
	} else {
		j.req.at, j.req.records, j.req.values = ts, &j.snap.records, &j.snap.values
		e.executeIn(j.req, j.shard, sc)
	}
	e.reads.Done()
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

// pending returns s.snaps without the stamps that came, which settle
// would not wait for: a shard that only reads runs nothing else, and kept
// every stamp its reads used, with what they read there (17 MB more live
// heap every 100,000 GETs). The caller holds s.
func (s *shard) pending() []*stamp {
	kept := s.snaps[:0]
	for _, st := range s.snaps {
		if !st.came.Load() {
			kept = append(kept, st)
		}
	}
	clear(s.snaps[len(kept):])
	return kept
}

// queues reports whether the shard holds msg with its queued writes (a
// batchable write on a shared store), to run in a group later: it waits
// for its shard's read stamps only before the group commits (settleWrites).
func (s *shard) queues(msg any) bool {
	req, ok := msg.(*Request)
	return ok && s.e.shared && batchable(req, true)
}

// settleWrites waits, before a commit of queued writes (or the re-run of
// their group), for the stamps of the reads the shard started meanwhile:
// a read must not see a write that arrived after it, and a commit whose
// timestamp is asked for after the read's stamp came is not in its
// snapshot. The group's transaction runs its commands while the stamps
// are on their way. The caller holds s.
func (s *shard) settleWrites() {
	if s.e.snaps != nil {
		s.settle()
	}
}

// notedWrites notes a commit of queued writes as something the shard ran
// (noteRan): a read that arrived before it but is taken after needs a
// stamp asked after it, or it would miss a write its client sent first.
func (s *shard) notedWrites() {
	if s.e.snaps != nil {
		s.noteRan()
	}
}

// queuedTouch reports whether a write the shard holds queued (not yet
// run) may touch a key req reads: then req must wait for it (its client
// may have sent it first). Writes of other keys are left queued: the read
// and they arrived together, unacknowledged, so either order is right,
// and the read takes its stamp before they commit (settleWrites). Keys
// are compared in every database (MOVE, COPY ... DB write another's); a
// script or a command without declared keys touches anything.
func (s *shard) queuedTouch(req *Request) bool {
	var buf [8][]byte
	keys := req.keys(buf[:0])
	if len(keys) == 0 || req.Spec.Flags&command.Serial != 0 {
		return true
	}
	var wbuf [8][]byte
	for _, w := range s.queued {
		if w.Spec.Flags&command.Serial != 0 {
			return true
		}
		wkeys := w.keys(wbuf[:0])
		if len(wkeys) == 0 {
			return true
		}
		for _, wk := range wkeys {
			for _, k := range keys {
				if bytes.Equal(wk, k) {
					return true
				}
			}
		}
	}
	return false
}

// noteRan notes that s has run something other than a snapshot read: later
// reads need a stamp asked for after it. The caller holds s.
func (s *shard) noteRan() { s.ran = time.Now() }

// failRead answers a snapshot read whose stamp could not be had with the
// storage error, as a transaction that failed to begin would.
func (e *Engine) failRead(req *Request, err error) {
	if e.hooks.StorageError != nil {
		e.hooks.StorageError(err)
	}
	e.replyError(req, err)
}

// replyError answers req with err as a RESP error (command.Reply).
func (e *Engine) replyError(req *Request, err error) {
	w := resp.NewWriter(req.Proto)
	command.Reply(w, err, req.Spec.FullName(), e.log)
	req.reply(w.Bytes(), err)
}
