package tikv

import (
	"context"
	"errors"
	"fmt"
	"github.com/tikv/client-go/v2/oracle"
	"time"

	tikverr "github.com/tikv/client-go/v2/error"
	"github.com/tikv/client-go/v2/kv"
	"github.com/tikv/client-go/v2/txnkv/transaction"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rekv/rekv/drivers"
)

// valuePrefix starts every stored value (TiKV refuses empty values).
const valuePrefix = 0x00

type txn struct {
	tx       *transaction.KVTxn
	cl       *client         // the client it began on
	ctx      context.Context // the client's (DB.client)
	timeout  time.Duration   // Options.RequestTimeout, per call
	ns       []byte          // Options.Namespace, before every key
	writable bool
	writes   int
	reads    [][]byte // LockRead keys, locked at commit if the txn writes
	done     bool
	fence    func() int64 // DB.SetFence's, nil once Unfence
}

var (
	_ drivers.Txn         = (*txn)(nil)
	_ drivers.ReadLocker  = (*txn)(nil)
	_ drivers.FenceExempt = (*txn)(nil)
	_ drivers.Clocked     = (*txn)(nil)
)

// Unfence exempts the transaction from the driver's fence
// (drivers.FenceExempt).
func (t *txn) Unfence() { t.fence = nil }

// StartMillis is the start timestamp's physical part: unix ms by PD's
// clock (drivers.Clocked).
func (t *txn) StartMillis() int64 { return oracle.ExtractPhysical(t.tx.StartTS()) }

func wrap(err error) error {
	var conflict *tikverr.ErrWriteConflict
	var retryable *tikverr.ErrRetryable
	var tooLarge *tikverr.ErrTxnTooLarge
	var entryTooLarge *tikverr.ErrEntryTooLarge
	var keyTooLarge *tikverr.ErrKeyTooLarge
	switch {
	case err == nil:
		return nil
	case tikverr.IsErrNotFound(err):
		return drivers.ErrNotFound
	case errors.As(err, &conflict), errors.As(err, &retryable), errors.As(err, new(*tikverr.ErrWriteConflictInLatch)):
		return fmt.Errorf("%w: %w", drivers.ErrConflict, err)
	case errors.As(err, &tooLarge), errors.As(err, &entryTooLarge), errors.As(err, &keyTooLarge):
		return fmt.Errorf("%w: %w", drivers.ErrTxnTooBig, err)
	case errors.Is(err, tikverr.ErrResultUndetermined):
		return fmt.Errorf("%w: %w", drivers.ErrUndetermined, err)
	case unavailable(err):
		return fmt.Errorf("%w: %w", drivers.ErrUnavailable, err)
	}
	return fmt.Errorf("tikv: %w", err)
}

// unavailable reports an error of a store or PD that could not be
// reached or did not answer in time (client-go gave up its back-off).
func unavailable(err error) bool {
	for _, e := range []error{tikverr.ErrRegionUnavailable, tikverr.ErrQueryInterrupted, tikverr.ErrTiKVServerTimeout, tikverr.ErrTiKVServerBusy,
		tikverr.ErrRegionDataNotReady, tikverr.ErrRegionNotInitialized, tikverr.ErrTiKVStaleCommand,
		tikverr.ErrTiKVMaxTimestampNotSynced, tikverr.ErrResolveLockTimeout, tikverr.ErrRegionRecoveryInProgress,
		context.DeadlineExceeded, context.Canceled} {
		if errors.Is(err, e) {
			return true
		}
	}
	var pdTimeout *tikverr.ErrPDServerTimeout
	var killed tikverr.ErrQueryInterruptedWithSignal // the client was replaced (client.stop)
	if errors.As(err, &pdTimeout) || errors.As(err, &killed) {
		return true
	}
	switch status.Code(err) { // it finds a status anywhere in the chain
	case codes.Unavailable, codes.DeadlineExceeded, codes.Canceled:
		return true
	}
	return false
}

// decode strips the format prefix from a stored value and copies it.
func decode(v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != valuePrefix {
		return nil, fmt.Errorf("tikv: stored value without format prefix (%d bytes)", len(v))
	}
	return append(make([]byte, 0, len(v)-1), v[1:]...), nil
}

// key returns the stored form of a key: the namespace, then the key (k
// itself without a namespace).
func (t *txn) key(k []byte) []byte {
	if len(t.ns) == 0 {
		return k
	}
	return append(append(make([]byte, 0, len(t.ns)+len(k)), t.ns...), k...)
}

// namespaceEnd returns the first key past every key that starts with ns
// (nil: none, for a namespace of 0xff bytes only).
func namespaceEnd(ns []byte) []byte {
	end := append([]byte(nil), ns...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

func (t *txn) live() error {
	if t.done {
		return drivers.ErrClosed
	}
	return nil
}

func (t *txn) Get(key []byte) ([]byte, error) {
	if err := t.live(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	defer cancel()
	e, err := t.tx.Get(ctx, t.key(key))
	if err != nil {
		return nil, wrapIn(ctx, err)
	}
	return decode(e.Value)
}

func (t *txn) BatchGet(keys [][]byte) ([][]byte, error) {
	if err := t.live(); err != nil {
		return nil, err
	}
	stored := keys
	if len(t.ns) > 0 {
		stored = make([][]byte, len(keys))
		for i, k := range keys {
			stored[i] = t.key(k)
		}
	}
	ctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	defer cancel()
	m, err := t.tx.BatchGet(ctx, stored)
	if err != nil {
		return nil, wrapIn(ctx, err)
	}
	out := make([][]byte, len(keys))
	for i, k := range stored {
		if e, ok := m[string(k)]; ok {
			if out[i], err = decode(e.Value); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (t *txn) Set(key, value []byte) error {
	if err := t.live(); err != nil {
		return err
	}
	if !t.writable {
		return fmt.Errorf("tikv: write in a read-only transaction: %w", drivers.ErrClosed)
	}
	v := make([]byte, 1, len(value)+1)
	v[0] = valuePrefix
	t.writes++
	return wrap(t.tx.Set(t.key(key), append(v, value...)))
}

func (t *txn) Delete(key []byte) error {
	if err := t.live(); err != nil {
		return err
	}
	if !t.writable {
		return fmt.Errorf("tikv: write in a read-only transaction: %w", drivers.ErrClosed)
	}
	t.writes++
	return wrap(t.tx.Delete(t.key(key)))
}

// LockRead makes a concurrent commit of key conflict with this transaction
// (when it writes anything): key is committed as a lock record.
func (t *txn) LockRead(key []byte) error {
	if err := t.live(); err != nil {
		return err
	}
	if t.writable {
		t.reads = append(t.reads, append(t.ns[:len(t.ns):len(t.ns)], key...))
	}
	return nil
}

type iterator interface {
	Valid() bool
	Key() []byte
	Value() []byte
	Next() error
	Close()
}

func (t *txn) Iterate(start, end []byte, opts drivers.IterOptions, fn func(k, v []byte) (bool, error)) error {
	if err := t.live(); err != nil {
		return err
	}
	if len(t.ns) > 0 {
		start = t.key(start)
		if end != nil {
			end = t.key(end)
		} else {
			end = namespaceEnd(t.ns)
		}
	}
	var it iterator
	var err error
	if opts.Reverse {
		it, err = t.tx.IterReverse(end, start)
	} else {
		it, err = t.tx.Iter(start, end)
	}
	if err != nil {
		return wrap(err)
	}
	defer it.Close()
	for n := 0; it.Valid(); {
		v := it.Value()
		if len(v) == 0 || v[0] != valuePrefix {
			return fmt.Errorf("tikv: stored value without format prefix at %q", it.Key())
		}
		more, err := fn(it.Key()[len(t.ns):], v[1:])
		if err != nil {
			return err
		}
		n++
		if !more || (opts.Limit > 0 && n >= opts.Limit) {
			return nil
		}
		if err := it.Next(); err != nil {
			return wrap(err)
		}
	}
	return nil
}

func (t *txn) Commit() error {
	if err := t.live(); err != nil {
		return err
	}
	t.done = true
	if t.writes == 0 {
		return wrap(t.tx.Rollback())
	}
	t.cl.committing.Add(1)
	defer func() {
		t.cl.committing.Add(-1)
		t.cl.commitsDone.Add(1)
	}()
	ctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	defer cancel()
	if len(t.reads) > 0 {
		lc := kv.NewLockCtx(t.tx.StartTS(), 0, time.Now())
		if err := t.tx.LockKeys(ctx, lc, t.reads...); err != nil {
			_ = t.tx.Rollback()
			return wrapIn(ctx, err)
		}
	}
	fenced := false
	if t.fence != nil {
		until := t.fence
		t.tx.SetCommitTSUpperBoundCheck(func(ts uint64) bool {
			u := until()
			fenced = u > 0 && oracle.ExtractPhysical(ts) >= u
			return !fenced
		})
	}
	err := t.tx.Commit(ctx)
	if fenced {
		// Refused before the primary's commit: the prewritten locks are
		// rolled back by whoever meets them.
		return fmt.Errorf("%w: %w", drivers.ErrFenced, err)
	}
	return committed(wrapIn(ctx, err))
}

// wrapIn is wrap for an error of a call made with ctx: once ctx ended
// (the request timeout, or the client replaced), whatever client-go
// returns — it does not always keep the context's error in the chain —
// means the store did not answer in time.
func wrapIn(ctx context.Context, err error) error {
	err = wrap(err)
	if err != nil && ctx.Err() != nil && !errors.Is(err, drivers.ErrUnavailable) && !errors.Is(err, drivers.ErrUndetermined) {
		return fmt.Errorf("%w: %w (%w)", drivers.ErrUnavailable, err, ctx.Err())
	}
	return err
}

// committed classifies a commit's error: a conflict or a transaction too
// big was not applied; any other failure (the store or PD went away, the
// client was replaced) may have come after the commit was applied, so it
// is ErrUndetermined — a write retried on it could apply twice.
func committed(err error) error {
	err = wrap(err)
	if err == nil || errors.Is(err, drivers.ErrConflict) || errors.Is(err, drivers.ErrTxnTooBig) ||
		errors.Is(err, drivers.ErrUndetermined) {
		return err
	}
	return fmt.Errorf("%w: %w", drivers.ErrUndetermined, err)
}

func (t *txn) Rollback() {
	if !t.done {
		t.done = true
		_ = t.tx.Rollback()
	}
}
