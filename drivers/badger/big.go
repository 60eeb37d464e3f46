package badger

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	bdg "github.com/dgraph-io/badger/v4"

	"github.com/rekv/rekv/drivers"
)

// Big transactions.
//
// Badger applies a transaction's writes to one memtable at once, so one
// transaction holds at most MaxBatchCount entries and MaxBatchSize bytes
// (a share of the memtable: about 24,000 small entries with rekv's 16 MiB
// memtables); a Redis command may write far more (HSET of a million
// fields). Near those limits a transaction goes big: its later writes go
// to an overlay in memory, which its own reads see, up to
// Options.MaxTxnBytes in all (then ErrTxnTooBig). Commit then
//
//  1. writes the overlay to a journal in write batches: for each write,
//     system key 's' 0 'j' id 2 flag key (flag 1 for a delete) holding
//     the value as it is, so the journal copies nothing (a key too long
//     for that goes to 's' 0 'j' id 0 seq, its key inside the value);
//  2. under the store's exclusive lock (no transaction begins or commits
//     meanwhile) commits the transaction itself, with the journal's done
//     marker ('s' 0 'j' id 1): conflicts are checked here as for any
//     transaction, and a conflict drops the journal;
//  3. still under the lock, applies the overlay (from memory) in write
//     batches, then deletes the journal, its marker last.
//
// A crash after 2 leaves a marked journal, which Open applies before the
// store serves anything; a journal without its marker (a crash before 2)
// is deleted. So all of the transaction is applied or none of it, across
// a crash, and no reader sees part of it: those that began before 2 read
// an older snapshot, and none begins during 2 and 3.

// bigMargin is room kept below Badger's limits when a transaction goes
// big, for the journal's marker.
const (
	bigMarginCount = 16
	bigMarginBytes = 4 << 10
)

// entryCost bounds what Badger counts for an entry against MaxBatchSize
// (key, value or value pointer, meta, version).
func entryCost(key, value []byte) int64 { return int64(len(key)+len(value)) + 24 }

// overlay holds a big transaction's writes past Badger's limits: the last
// write of each key.
type overlay struct {
	m     map[string]overlayEntry
	bytes int64
}

type overlayEntry struct {
	val []byte
	del bool
}

// room reports whether the transaction can take one more entry into
// Badger's own batch, keeping the margin for the marker.
func (t *txn) room(cost int64) bool {
	return t.count+1 < t.d.db.MaxBatchCount()-bigMarginCount &&
		t.size+cost < t.d.db.MaxBatchSize()-bigMarginBytes
}

// put records a write in the overlay (value nil and del for a delete);
// the transaction goes big if it was not.
func (t *txn) put(key, value []byte, del bool) error {
	if t.big == nil {
		t.big = &overlay{m: map[string]overlayEntry{}}
	}
	cost := entryCost(key, value)
	if t.d.maxTxn > 0 && t.size+t.big.bytes+cost > t.d.maxTxn {
		return fmt.Errorf("%w: over %d bytes (storage.badger.max_txn_mib)", drivers.ErrTxnTooBig, t.d.maxTxn)
	}
	t.wrote = true
	k := string(key)
	if old, ok := t.big.m[k]; ok {
		t.big.bytes -= entryCost(key, old.val)
	}
	t.big.m[k] = overlayEntry{val: value, del: del}
	t.big.bytes += cost
	return nil
}

// overlaid returns the overlay's entry for key.
func (t *txn) overlaid(key []byte) (overlayEntry, bool) {
	if t.big == nil {
		return overlayEntry{}, false
	}
	e, ok := t.big.m[string(key)]
	return e, ok
}

// overlayRange returns the overlay's keys in [start, end) in iteration
// order.
func (t *txn) overlayRange(start, end []byte, reverse bool) []string {
	var keys []string
	for k := range t.big.m {
		if k >= string(start) && (end == nil || k < string(end)) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if reverse {
		slices.Reverse(keys)
	}
	return keys
}

// Journal keys: prefix id kind, then for kind 0 (an entry whose key is
// in its value) seq, for kind 2 (an entry) a delete flag and the key;
// kind 1 is the marker.
var journalPrefix = []byte{drivers.SystemPrefix, 0, 'j'}

const (
	journalEncoded = 0
	journalMarker  = 1
	journalPlain   = 2
)

// maxPlainKey is the longest key a plain journal entry holds: Badger's
// keys are at most 65,000 bytes.
const maxPlainKey = 64<<10 - 1024

func journalKey(id uint64, kind byte, seq uint64) []byte {
	k := binary.BigEndian.AppendUint64(slices.Clone(journalPrefix), id)
	k = append(k, kind)
	if kind == journalEncoded {
		k = binary.BigEndian.AppendUint64(k, seq)
	}
	return k
}

// plainJournalKey is the journal key of a write of key (plain kind).
func plainJournalKey(id uint64, key string, del bool) []byte {
	k := journalKey(id, journalPlain, 0)
	flag := byte(0)
	if del {
		flag = 1
	}
	return append(append(k, flag), key...)
}

// isMarker reports whether a journal key is its journal's marker.
func isMarker(k []byte) bool { return k[len(journalPrefix)+8] == journalMarker }

// journalWrite decodes a journal entry (not the marker) into the write
// it records.
func journalWrite(k, v []byte) (key, val []byte, del bool, err error) {
	at := len(journalPrefix) + 8
	if k[at] == journalPlain {
		if len(k) < at+2 {
			return nil, nil, false, errors.New("badger: journal key too short")
		}
		return k[at+2:], v, k[at+1] == 1, nil
	}
	return decodeJournalEntry(v)
}

// journalEntry encodes one overlay entry: a delete flag, the key's length,
// the key, the value.
func journalEntry(key string, e overlayEntry) []byte {
	b := make([]byte, 0, 1+binary.MaxVarintLen64+len(key)+len(e.val))
	flag := byte(0)
	if e.del {
		flag = 1
	}
	b = append(b, flag)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	return append(b, e.val...)
}

func decodeJournalEntry(b []byte) (key, val []byte, del bool, err error) {
	if len(b) < 2 {
		return nil, nil, false, errors.New("badger: journal entry too short")
	}
	n, w := binary.Uvarint(b[1:])
	if w <= 0 || uint64(len(b)-1-w) < n {
		return nil, nil, false, errors.New("badger: journal entry malformed")
	}
	key = b[1+w : 1+w+int(n)]
	return key, b[1+w+int(n):], b[0] == 1, nil
}

// commitBig commits a big transaction (see the top of this file).
func (t *txn) commitBig() error {
	d := t.d
	if err := d.gone(); err != nil {
		return err
	}
	if err := d.room(t.bytes + 2*t.big.bytes); err != nil { // its journal, then the writes
		return err
	}
	id, err := d.NextVersion()
	if err != nil {
		return err
	}
	// 1. The journal.
	if err := d.writeJournal(id, t.big); err != nil {
		return err
	}
	// 2. The transaction with the marker, alone.
	d.bigMu.Lock()
	defer d.bigMu.Unlock()
	if err := t.tx.Set(journalKey(id, 1, 0), nil); err != nil {
		return d.dropJournal(id, wrap(err))
	}
	if err := t.tx.Commit(); err != nil {
		return d.dropJournal(id, t.commitError(err))
	}
	if fn := d.afterMarker; fn != nil {
		if err := fn(); err != nil {
			return err // a test's crash: the journal stays for Open
		}
	}
	// 3. The overlay, then the journal goes.
	if err := d.applyOverlay(t.big); err != nil {
		return fmt.Errorf("badger: apply a committed journal (applied at the next start): %w", err)
	}
	if err := d.deleteJournal(id); err != nil {
		return fmt.Errorf("badger: delete an applied journal (at the next start): %w", err)
	}
	return d.syncCommitted()
}

// writeJournal writes the overlay as journal id (holding bigMu shared:
// not during Compact's flush, which refuses writes).
func (d *DB) writeJournal(id uint64, big *overlay) error {
	d.bigMu.RLock()
	defer d.bigMu.RUnlock()
	wb := d.db.NewWriteBatch()
	var seq uint64
	for k, e := range big.m {
		var err error
		if len(k) <= maxPlainKey {
			err = wb.Set(plainJournalKey(id, k, e.del), e.val) // e.val is kept until the commit, not copied
		} else {
			err = wb.Set(journalKey(id, journalEncoded, seq), journalEntry(k, e))
		}
		if err != nil {
			wb.Cancel()
			return d.dropJournal(id, fmt.Errorf("badger: journal: %w", wrap(err)))
		}
		seq++
	}
	if err := wb.Flush(); err != nil {
		return d.dropJournal(id, fmt.Errorf("badger: journal: %w", wrap(err)))
	}
	return nil
}

// dropJournal deletes journal id's entries and returns err.
func (d *DB) dropJournal(id uint64, err error) error {
	if derr := d.deleteJournal(id); derr != nil {
		d.log.Warn("badger: drop an uncommitted journal (deleted at the next start)", "err", derr)
	}
	return err
}

// journalEntries calls fn for each key of journal id, and its value when
// values is set (nil otherwise), reading in a snapshot.
func (d *DB) journalEntries(id uint64, values bool, fn func(k, v []byte) error) error {
	prefix := binary.BigEndian.AppendUint64(slices.Clone(journalPrefix), id)
	return d.db.View(func(tx *bdg.Txn) error {
		it := tx.NewIterator(bdg.IteratorOptions{Prefix: prefix, PrefetchValues: values})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().KeyCopy(nil)
			var v []byte
			if values {
				var err error
				if v, err = it.Item().ValueCopy(nil); err != nil {
					return err
				}
			}
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// applyOverlay writes a committed big transaction's overlay to its keys.
// Repeatable, like applyJournal.
func (d *DB) applyOverlay(big *overlay) error {
	wb := d.db.NewWriteBatch()
	for k, e := range big.m {
		if err := batchWrite(wb, []byte(k), e.val, e.del); err != nil {
			wb.Cancel()
			return err
		}
	}
	return wb.Flush()
}

// batchWrite adds a write (a delete when del) to wb.
func batchWrite(wb *bdg.WriteBatch, key, val []byte, del bool) error {
	if del {
		return wb.Delete(key)
	}
	return wb.Set(key, val)
}

// applyJournal writes journal id's entries to their keys, then deletes
// the journal, its marker last. Each step is repeatable: a crash in the
// middle leaves the marker, and Open applies it again.
func (d *DB) applyJournal(id uint64) error {
	wb := d.db.NewWriteBatch()
	err := d.journalEntries(id, true, func(k, v []byte) error {
		if isMarker(k) {
			return nil
		}
		key, val, del, err := journalWrite(k, v)
		if err != nil {
			return err
		}
		return batchWrite(wb, key, val, del)
	})
	if err != nil {
		wb.Cancel()
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	return d.deleteJournal(id)
}

// deleteJournal deletes journal id: its entries, then its marker.
func (d *DB) deleteJournal(id uint64) error {
	wb := d.db.NewWriteBatch()
	var marker []byte
	err := d.journalEntries(id, false, func(k, _ []byte) error {
		if isMarker(k) {
			marker = k
			return nil
		}
		return wb.Delete(k)
	})
	if err != nil {
		wb.Cancel()
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	if marker == nil {
		return nil
	}
	return d.db.Update(func(tx *bdg.Txn) error { return tx.Delete(marker) })
}

// recoverJournals, at Open: applies the journals whose marker is there
// (committed big transactions a crash interrupted) and deletes the rest.
func (d *DB) recoverJournals() error {
	type journal struct {
		id     uint64
		marked bool
	}
	var found []journal
	err := d.db.View(func(tx *bdg.Txn) error {
		it := tx.NewIterator(bdg.IteratorOptions{Prefix: journalPrefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if len(k) < len(journalPrefix)+9 {
				return fmt.Errorf("badger: malformed journal key %q", k)
			}
			id := binary.BigEndian.Uint64(k[len(journalPrefix):])
			if len(found) == 0 || found[len(found)-1].id != id {
				found = append(found, journal{id: id})
			}
			if isMarker(k) {
				found[len(found)-1].marked = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, j := range found {
		if j.marked {
			d.log.Warn("badger: applying a big transaction a stop interrupted", "journal", j.id)
			err = d.applyJournal(j.id)
		} else {
			err = d.deleteJournal(j.id)
		}
		if err != nil {
			return fmt.Errorf("badger: recover journal %d: %w", j.id, err)
		}
	}
	return nil
}

// iterateBig is Iterate for a big transaction: Badger's keys (its own
// pending writes included) merged with the overlay's, the overlay's
// winning.
func (t *txn) iterateBig(start, end []byte, opts drivers.IterOptions, fn func(k, v []byte) (bool, error)) error {
	over := t.overlayRange(start, end, opts.Reverse)
	before := func(a, b []byte) bool { // a comes before b in this direction
		if opts.Reverse {
			return bytes.Compare(a, b) > 0
		}
		return bytes.Compare(a, b) < 0
	}
	n := 0
	stopped := false
	emit := func(k, v []byte) (bool, error) {
		more, err := fn(k, v)
		if err != nil {
			return false, err
		}
		n++
		if !more || (opts.Limit > 0 && n >= opts.Limit) {
			stopped = true
			return false, nil
		}
		return true, nil
	}
	// emitOverlay emits the overlay's keys before k (all with k nil).
	emitOverlay := func(k []byte) (bool, error) {
		for len(over) > 0 && (k == nil || before([]byte(over[0]), k)) {
			ok := over[0]
			over = over[1:]
			e := t.big.m[ok]
			if e.del {
				continue
			}
			if more, err := emit([]byte(ok), e.val); err != nil || !more {
				return more, err
			}
		}
		return true, nil
	}
	inner := opts
	inner.Limit = 0
	err := t.iterate(start, end, inner, func(k, v []byte) (bool, error) {
		if more, err := emitOverlay(k); err != nil || !more {
			return more, err
		}
		if len(over) > 0 && over[0] == string(k) {
			return true, nil // the overlay's write wins: emitted by emitOverlay later
		}
		return emit(k, v)
	})
	if err != nil || stopped {
		return err
	}
	_, err = emitOverlay(nil)
	return err
}
