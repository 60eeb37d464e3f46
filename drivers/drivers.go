package drivers

import (
	"context"
	"errors"
	"io"
	"time"
)

// Sentinel errors. Drivers wrap their native errors so that callers classify
// them with errors.Is.
var (
	// ErrNotFound reports a missing key.
	ErrNotFound = errors.New("drivers: key not found")
	// ErrConflict reports a transaction that lost a conflict; retry it.
	ErrConflict = errors.New("drivers: transaction conflict")
	// ErrTxnTooBig reports a transaction over the driver's size limits.
	ErrTxnTooBig = errors.New("drivers: transaction too big")
	// ErrClosed reports use of a closed driver or finished transaction.
	ErrClosed = errors.New("drivers: closed")
)

// SystemPrefix starts the keys a driver may keep for its own bookkeeping
// (Badger's version high-water mark). The codec reserves this first byte
// for system records (codec.PrefixSystem; a test checks they agree), so
// drivers need not know the rest of the layout.
const SystemPrefix byte = 's'

// Driver is a transactional ordered key-value store.
type Driver interface {
	// Begin starts a transaction; writable is false for read-only ones.
	Begin(writable bool) (Txn, error)
	// NextVersion returns a version never returned before by this store.
	NextVersion() (uint64, error)
	// Close flushes and closes the store.
	Close() error
}

// IterOptions tune Txn.Iterate.
type IterOptions struct {
	Reverse bool // visit keys from the end of the range backwards
	Limit   int  // stop after this many keys; 0 means no limit
	// KeysOnly: the caller needs no values; a driver may pass nil ones
	// (Badger then reads no value kept apart from its key).
	KeysOnly bool
}

// Txn is one transaction. It is not safe for concurrent use.
//
// No method modifies the keys and values it is given, and the
// transaction keeps none of them past the call: Set copies key and value
// (see OwnedSetter for the exception), so callers may pass bytes they do
// not own outright, such as a string's.
type Txn interface {
	Get(key []byte) ([]byte, error)
	// BatchGet returns one value per key, nil where a key is missing.
	BatchGet(keys [][]byte) ([][]byte, error)
	Set(key, value []byte) error
	Delete(key []byte) error
	// Iterate calls fn for each key in [start, end) until fn returns false or
	// an error, or Limit keys were visited.
	Iterate(start, end []byte, opts IterOptions, fn func(key, value []byte) (bool, error)) error
	Commit() error
	// Rollback discards the transaction; it is safe after Commit.
	Rollback()
}

// Snapshotter is implemented by drivers whose snapshots are named by a
// timestamp taken from the store (TiKV: PD's oracle), so a read can be
// begun later, elsewhere, at a snapshot chosen now, and several reads can
// share one: the engine takes a stamp in a shard's order, then runs the
// reads that arrived before it at that stamp on goroutines of their own.
type Snapshotter interface {
	// ReadStamp asks for a stamp newer than every commit that finished
	// before the call and returns a function that waits for it (it may be
	// called any number of times, from any goroutine).
	ReadStamp() func() (uint64, error)
	// BeginAt starts a read-only transaction reading the snapshot at ts,
	// a stamp from ReadStamp; it costs no round trip.
	BeginAt(ts uint64) (Txn, error)
}

// VersionBatcher is implemented by drivers whose NextVersion costs a
// round trip (TiKV: a timestamp of PD's oracle). NextVersions returns n
// versions (1 <= n) for about the price of one: they are asked for
// together, in increasing order, each newer than every version returned
// before the call.
//
// BeginWithVersions begins a writable transaction and returns n versions
// (0 <= n) asked for with its start timestamp (in the same request to the
// oracle when its client batches them), each newer than every version
// returned before the call: a group of writes expecting to create keys
// then waits for the oracle once in all.
type VersionBatcher interface {
	NextVersions(n int) ([]uint64, error)
	BeginWithVersions(n int) (Txn, []uint64, error)
}

// Reconnector is implemented by drivers that talk to a store over the
// network and can drop their client state and connect afresh (TiKV). The
// node's health loop asks for it when its probe write hangs or fails, in
// case the client, not the store, is what fails: Renew connects a new
// client and writes through it within timeout; when that works and stuck
// (asked then) still reports true, the new client replaces the current
// one and Renew reports true. A driver with nothing to renew (an
// in-process store) reports false and no error.
type Reconnector interface {
	Renew(timeout time.Duration, stuck func() bool) (bool, error)
}

// ErrUnavailable reports a store that could not be reached or did not
// answer in time: the operation did not happen (a commit whose outcome is
// unknown reports ErrUndetermined instead).
var ErrUnavailable = errors.New("drivers: storage unavailable")

// ErrUndetermined reports a commit whose outcome is unknown: the store
// went away after it may have applied it.
var ErrUndetermined = errors.New("drivers: commit outcome unknown")

// Compactor is implemented by drivers that can be asked to give back the
// space of deleted keys now (an LSM keeps it until compaction). The GC
// calls it after reclaiming many keys.
type Compactor interface {
	Compact() error
}

// BlindDeleter is implemented by drivers that can delete keys no
// transaction reads or writes any more (the members of dead versions)
// more cheaply than through transactions: no conflict tracking, commits
// batched and pipelined (Badger: a write batch). DeleteKeys returns once
// every delete is committed as a transaction's would be; on an error some
// may be.
type BlindDeleter interface {
	DeleteKeys(keys [][]byte) error
}

// DeleteKeys deletes keys that no transaction reads or writes any more:
// through the driver's BlindDeleter, or in transactions of at most chunk
// deletes. It stops between transactions once ctx ends, with ctx's error.
func DeleteKeys(ctx context.Context, d Driver, keys [][]byte, chunk int) error {
	if bd, ok := d.(BlindDeleter); ok {
		return bd.DeleteKeys(keys)
	}
	for len(keys) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(chunk, len(keys))
		tx, err := d.Begin(true)
		if err != nil {
			return err
		}
		for _, k := range keys[:n] {
			if err = tx.Delete(k); err != nil {
				break
			}
		}
		if err == nil {
			err = tx.Commit()
		}
		tx.Rollback()
		if err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

// PreWriter is implemented by drivers that can write keys no transaction
// reads yet (the chunks of a version no meta names yet) outside any
// transaction, in bulk and in small commits, before the transaction that
// makes them visible commits (Badger: a 512 MiB value is written once,
// instead of through its big-transaction journal twice while every other
// transaction waits).
//
// PreWrite writes each pair put yields under prefix, whole or partly on
// an error. Pending(prefix) reports true from PreWrite's start until
// Settle(prefix): the GC's orphan search leaves such keys alone, since
// their meta is not committed yet. The caller settles each prefix it
// pre-wrote once its transaction has ended, and when that transaction did
// not commit, records the version as garbage (or leaves the keys to the
// orphan search, as a crash would).
type PreWriter interface {
	PreWrite(prefix []byte, put func(yield func(key, value []byte) error) error) error
	Pending(prefix []byte) bool
	Settle(prefix []byte)
}

// ReadLocker is implemented by transactions that do not detect read-write
// conflicts on their own (TiKV's optimistic transactions are snapshot
// isolated: only keys both sides write conflict). After LockRead(key), a
// concurrent commit that wrote key makes this transaction's Commit fail
// with ErrConflict, as if it had written key too. It costs nothing when
// the transaction writes nothing. Badger (serializable) does not need it.
type ReadLocker interface {
	LockRead(key []byte) error
}

// OwnedSetter is implemented by transactions whose Set copies key and
// value (the caller may reuse them) but that can keep the caller's slices
// instead: SetOwned's caller promises not to modify key or value until
// the transaction ends, which saves a copy of big values (a chunked
// string's chunks) and an allocation per key written (a meta key, which
// the store holds as an immutable string). Badger keeps slices; TiKV's
// memdb copies anyway.
type OwnedSetter interface {
	SetOwned(key, value []byte) error
}

// SetOwned sets key to value; the caller will modify neither until tx
// ends (see OwnedSetter).
func SetOwned(tx Txn, key, value []byte) error {
	if o, ok := tx.(OwnedSetter); ok {
		return o.SetOwned(key, value)
	}
	return tx.Set(key, value)
}

// Backuper is implemented by drivers that can copy the whole store to a
// stream and load such a copy back (SAVE, BGSAVE and starting from a
// backup). Backup writes one consistent snapshot; Restore loads a backup
// into a store that holds nothing yet (ErrNotEmpty otherwise), before it
// serves anything.
type Backuper interface {
	Backup(w io.Writer) error
	Restore(r io.Reader) error
}

// DurabilitySetter is implemented by drivers whose durability can change
// at run time (CONFIG SET appendfsync: always, everysec or no).
type DurabilitySetter interface {
	SetDurability(level string) error
}

// CommitSyncer is implemented by drivers whose commits may each wait for
// a disk sync (Badger with durability always): SyncsCommits reports
// whether they do now. The engine then leaves writes to its shards, whose
// group commits share one sync among many commands.
type CommitSyncer interface {
	SyncsCommits() bool
}

// Syncer is implemented by drivers whose commits may wait in the OS's
// buffers (Badger with durability everysec or no): Sync makes every
// committed write durable now. Others (TiKV: raft-replicated) are durable
// at commit.
type Syncer interface {
	Sync() error
}

// Checker is implemented by drivers that can tell whether they can still
// persist writes (Badger: its directory is there and its background work
// has not failed). A failing Check makes the server refuse writes until it
// passes again.
type Checker interface {
	Check() error
}

// ErrNotEmpty is Restore's refusal to load a backup over existing data.
var ErrNotEmpty = errors.New("drivers: the store is not empty")

// Sizer is implemented by drivers that can tell their size on disk by
// part (Badger: "lsm" and "vlog"), for /metrics.
type Sizer interface {
	Sizes() map[string]int64
}

// LockRead marks key as read by tx when tx needs it (see ReadLocker).
func LockRead(tx Txn, key []byte) error {
	if l, ok := tx.(ReadLocker); ok {
		return l.LockRead(key)
	}
	return nil
}

// ErrFenced reports a commit refused because it would have come after the
// fence its driver was given (Fencer): nothing was written.
var ErrFenced = errors.New("drivers: commit past the node's lease")

// Fencer is implemented by drivers of a store several nodes share that can
// refuse a commit by the store's own clock: after SetFence(until), a
// writable transaction commits only with a commit time (unix ms, the
// store's clock) before until() read at its commit, else it fails with
// ErrFenced and writes nothing. A node whose lease on some keys ends at
// until by that clock thus never writes them once another node may have
// taken them over (cluster mode's slot ownership). until returning 0 sets
// no bound. Transactions that must commit regardless (renewing the lease
// itself) call Unfence (FenceExempt) before committing.
type Fencer interface {
	SetFence(until func() int64)
}

// FenceExempt is implemented by transactions of a Fencer's driver.
type FenceExempt interface {
	Unfence()
}

// Unfence exempts tx from its driver's fence, if it has one.
func Unfence(tx Txn) {
	if u, ok := tx.(FenceExempt); ok {
		u.Unfence()
	}
}

// Clocked is implemented by transactions of a store with a clock of its
// own (TiKV's timestamp oracle): StartMillis is the transaction's start by
// that clock, in unix ms. Leases several nodes compare are written and
// judged in it.
type Clocked interface {
	StartMillis() int64
}
