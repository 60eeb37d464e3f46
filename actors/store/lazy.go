package store

import (
	"errors"
	"fmt"

	"github.com/rekv/rekv/drivers"
)

// lazyTxn begins its driver transaction at its first use: a command served
// wholly from the meta cache (GET of a small cached string, EXISTS, TYPE,
// TTL...) then costs no driver transaction at all — on Badger, two
// round trips through its read watermark's goroutine. Beginning later
// than Begin is harmless: the shard (or the barrier) owns the keys the
// transaction reads, so nothing they hold changes in between, and on a
// shared store the snapshot is still taken after the command arrived.
type lazyTxn struct {
	drv      drivers.Driver
	writable bool
	at       uint64          // Env.At: begin at this snapshot
	vals     *SnapshotValues // Env.Values: values read there already
	tx       drivers.Txn
	ended    bool
	// first, when set, runs once before the transaction's first
	// operation, given the key that operation reads when it is a Get (nil
	// otherwise), which it may read along with its own keys in one batch:
	// it then returns that key's value (drivers.ErrNotFound: missing) and
	// got true. See Tx.confirm.
	first func(tx drivers.Txn, key []byte) (v []byte, got bool, err error)
	// failed is first's error: every later operation fails with it.
	failed error
	// pool, when set, takes versions for new keys along with the start
	// timestamp of a writable transaction (versionPool.ahead).
	pool *versionPool
}

func (l *lazyTxn) txn() (drivers.Txn, error) {
	tx, _, _, err := l.txnFor(nil)
	return tx, err
}

// txnFor returns the transaction, begun if need be, running first: with
// got true, v (or err) is key's value, read along.
func (l *lazyTxn) txnFor(key []byte) (tx drivers.Txn, v []byte, got bool, err error) {
	if l.failed != nil {
		return nil, nil, false, l.failed
	}
	if l.tx == nil {
		if l.ended {
			return nil, nil, false, drivers.ErrClosed
		}
		tx, err := l.begin()
		if err != nil {
			return nil, nil, false, err
		}
		l.tx = tx
	}
	if f := l.first; f != nil {
		l.first = nil
		v, got, err = f(l.tx, key)
		if err != nil && !(got && errors.Is(err, drivers.ErrNotFound)) {
			l.failed = err
			return nil, nil, false, err
		}
	}
	return l.tx, v, got, err
}

func (l *lazyTxn) Get(key []byte) ([]byte, error) {
	tx, v, got, err := l.txnFor(key)
	if got || err != nil {
		return v, err
	}
	return tx.Get(key)
}

func (l *lazyTxn) BatchGet(keys [][]byte) ([][]byte, error) {
	tx, err := l.txn()
	if err != nil {
		return nil, err
	}
	return tx.BatchGet(keys)
}

func (l *lazyTxn) Set(key, value []byte) error {
	tx, err := l.txn()
	if err != nil {
		return err
	}
	return tx.Set(key, value)
}

func (l *lazyTxn) SetOwned(key, value []byte) error {
	tx, err := l.txn()
	if err != nil {
		return err
	}
	return drivers.SetOwned(tx, key, value)
}

func (l *lazyTxn) LockRead(key []byte) error {
	tx, err := l.txn()
	if err != nil {
		return err
	}
	return drivers.LockRead(tx, key)
}

func (l *lazyTxn) Delete(key []byte) error {
	tx, err := l.txn()
	if err != nil {
		return err
	}
	return tx.Delete(key)
}

func (l *lazyTxn) Iterate(start, end []byte, opts drivers.IterOptions, fn func(key, value []byte) (bool, error)) error {
	tx, err := l.txn()
	if err != nil {
		return err
	}
	return tx.Iterate(start, end, opts, fn)
}

// Commit commits what was written; a transaction never begun has nothing
// to commit.
func (l *lazyTxn) Commit() error {
	if l.tx == nil {
		l.ended = true
		return nil
	}
	return l.tx.Commit()
}

func (l *lazyTxn) Rollback() {
	l.ended = true
	if l.tx != nil {
		l.tx.Rollback()
	}
}

// begin starts the driver transaction: at snapshot at when set.
func (l *lazyTxn) begin() (drivers.Txn, error) {
	if l.at == 0 {
		if b, ok := l.drv.(drivers.VersionBatcher); ok && l.writable && l.pool != nil {
			if n := l.pool.ahead(); n > 0 {
				tx, vs, err := b.BeginWithVersions(n)
				if err == nil {
					l.pool.ready, l.pool.batch = vs, n
				}
				return tx, err
			}
		}
		return l.drv.Begin(l.writable)
	}
	sn, ok := l.drv.(drivers.Snapshotter)
	if !ok || l.writable {
		return nil, fmt.Errorf("store: a snapshot read on a %T, or a write at a snapshot", l.drv)
	}
	if l.vals != nil {
		return &valuesTxn{vals: l.vals, sn: sn, at: l.at}, nil
	}
	return sn.BeginAt(l.at)
}
