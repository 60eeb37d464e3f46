package store

import "github.com/rekv/rekv/drivers"

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
	tx       drivers.Txn
	ended    bool
}

func (l *lazyTxn) txn() (drivers.Txn, error) {
	if l.tx == nil {
		if l.ended {
			return nil, drivers.ErrClosed
		}
		tx, err := l.drv.Begin(l.writable)
		if err != nil {
			return nil, err
		}
		l.tx = tx
	}
	return l.tx, nil
}

func (l *lazyTxn) Get(key []byte) ([]byte, error) {
	tx, err := l.txn()
	if err != nil {
		return nil, err
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
