package badger

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bdg "github.com/dgraph-io/badger/v4"

	"github.com/rekv/rekv/drivers"
)

// Durability levels, like Redis's appendfsync.
const (
	DurabilityAlways   = "always"
	DurabilityEverySec = "everysec"
	DurabilityNo       = "no"
)

// Options configure the Badger driver.
type Options struct {
	Dir          string
	InMemory     bool
	Durability   string        // always | everysec | no
	ValueLogGC   time.Duration // interval between value-log GC runs; 0 disables
	MemTableSize int64         // bytes; 0 keeps Badger's default
	// ValueLogFileSize is each value-log file's size in bytes; 0 keeps
	// Badger's default (1 GiB). Badger allocates twice it while a file is
	// written (third_party/ristretto: allocated, not sparse).
	ValueLogFileSize int64
	BlockCacheMiB    int64 // 0 keeps Badger's default
	// IndexCacheMiB bounds tables' indexes and bloom filters in memory;
	// 0 keeps them all (Badger's default), which grows with the data.
	IndexCacheMiB int64
	// BaseTableSize is the size of Badger's smallest tables in bytes (0:
	// Badger's 2 MiB): its compactions build several tables at once, each
	// in about twice this much memory.
	BaseTableSize int64
	// ValueThreshold: values of at least this many bytes go to the value
	// log, the rest into the LSM tree; 0 means DefaultValueThreshold.
	ValueThreshold int64
	// MinFreeBytes: Check fails while the data directory's file system has
	// less free space than this (0: no check). Badger writes its log files
	// through memory maps, and a write to a full file system kills the
	// process (SIGBUS), so writes must stop before that.
	MinFreeBytes int64
	// MaxTxnBytes bounds a big transaction (big.go): one past Badger's
	// own limits keeps its further writes in memory up to this many bytes
	// in all. 0: no big transactions (Badger's limits refuse).
	MaxTxnBytes int64
	Logger      *slog.Logger
}

// DefaultValueThreshold keeps the chunks of large strings (8 KiB) in the
// value log: a transaction's size limit counts only their pointers then, so
// one command can write a 512 MiB string (64Ki chunks). Badger's own default
// (1 MiB) would count every chunk's bytes and refuse writes over ~10 MB.
const DefaultValueThreshold = 4 << 10

// DB is a drivers.Driver backed by Badger.
type DB struct {
	db   *bdg.DB
	log  *slog.Logger
	stop chan struct{}
	wg   sync.WaitGroup

	mu   sync.Mutex // guards the version clock
	last uint64
	hwm  uint64
	now  func() time.Time

	// durability is the level in force (SetDurability); syncOpen tells
	// whether Badger was opened syncing every write (always at start).
	durability atomic.Value // string
	syncOpen   bool
	inMemory   bool
	dir        string
	minFree    int64
	// broken holds the failure that left Badger unusable (a panic in its
	// background work); Check reports it until the store is reopened.
	broken atomic.Pointer[error]
	// watch notices the data directory's removal (watch_linux.go);
	// Commit and Check fail from then on.
	watch *dirWatch
	// closeOnce makes Close run once; closeErr is its result.
	closeOnce sync.Once
	closeErr  error
	// bigMu: a big transaction's commit holds it exclusively while it
	// makes its writes visible (big.go), and Compact while Badger refuses
	// writes; Begin, Commit and the driver's other writes hold it shared
	// for the call. maxTxn is Options.MaxTxnBytes.
	bigMu  sync.RWMutex
	maxTxn int64
	// afterMarker, when set (tests), runs after a big transaction's
	// marker is committed; an error it returns stops the commit there,
	// as a crash would.
	afterMarker func() error
	// syncErr holds the last failed sync (everysec's, or Sync's); Check
	// reports it until a sync succeeds.
	syncErr atomic.Pointer[error]
	// space refuses commits under minFree (volume.go).
	space space
	// pending holds the prefixes pre-written and not settled yet
	// (prewrite.go).
	pending pending
}

var _ drivers.Driver = (*DB)(nil)

// Open opens (creating if needed) a Badger store.
func Open(o Options) (*DB, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if fitToVolume(&o) {
		o.Logger.Warn("badger: a small volume: files sized to it", "dir", o.Dir,
			"value_log_file_mib", float64(o.ValueLogFileSize)/(1<<20), "memtable_mib", float64(o.MemTableSize)/(1<<20),
			"min_free_mib", float64(o.MinFreeBytes)/(1<<20))
	}
	bo := bdg.DefaultOptions(o.Dir).
		WithInMemory(o.InMemory).
		WithSyncWrites(o.Durability == DurabilityAlways).
		WithLogger(newLogAdapter(o.Logger)).
		WithNumVersionsToKeep(1)
	if o.InMemory {
		bo = bo.WithDir("").WithValueDir("")
	}
	if o.MemTableSize > 0 {
		bo = bo.WithMemTableSize(o.MemTableSize)
	}
	if o.ValueLogFileSize > 0 {
		bo = bo.WithValueLogFileSize(o.ValueLogFileSize)
	}
	if o.ValueThreshold <= 0 {
		o.ValueThreshold = DefaultValueThreshold
	}
	if !o.InMemory { // in memory, every value lives in the LSM tree
		bo = bo.WithValueThreshold(o.ValueThreshold)
	}
	if o.BlockCacheMiB > 0 {
		bo = bo.WithBlockCacheSize(o.BlockCacheMiB << 20)
	}
	if o.IndexCacheMiB > 0 {
		bo = bo.WithIndexCacheSize(o.IndexCacheMiB << 20)
	}
	if o.BaseTableSize > 0 {
		bo = bo.WithBaseTableSize(o.BaseTableSize)
	}
	db, err := bdg.Open(bo)
	if err != nil {
		return nil, fmt.Errorf("badger: open %q: %w", o.Dir, err)
	}
	d := &DB{db: db, log: o.Logger, stop: make(chan struct{}), now: time.Now,
		syncOpen: o.Durability == DurabilityAlways, inMemory: o.InMemory, dir: o.Dir, minFree: o.MinFreeBytes, maxTxn: o.MaxTxnBytes}
	d.durability.Store(o.Durability)
	if err := d.loadHWM(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := d.recoverJournals(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if !o.InMemory {
		if d.watch, err = newDirWatch(o.Dir); err != nil {
			_ = db.Close()
			return nil, err
		}
		d.every(time.Second, func() {
			if d.durability.Load() != DurabilityEverySec {
				return
			}
			_ = d.Sync() // a failure is Check's to report
		})
	}
	if o.ValueLogGC > 0 && !o.InMemory {
		d.every(o.ValueLogGC, d.valueLogGC)
	}
	return d, nil
}

// gone returns an error once the data directory's files were removed.
func (d *DB) gone() error {
	if what := d.watch.removed(); what != "" {
		return fmt.Errorf("badger: %s: writes since would be lost: %w", what, syscall.ENOENT)
	}
	return nil
}

// every runs fn each interval until Close. A panic in fn (Badger's own
// state broken by a storage failure) is recovered, logged once and marks
// the store failed (Check), instead of ending the process.
func (d *DB) every(interval time.Duration, fn func()) {
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-d.stop:
				return
			case <-t.C:
				d.safely(fn)
			}
		}
	}()
}

func (d *DB) safely(fn func()) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("badger: background work panicked: %v", p)
			if d.broken.CompareAndSwap(nil, &err) {
				d.log.Error("storage failed", "err", err)
			}
		}
	}()
	fn()
}

// Check implements drivers.Checker: the data directory must still be
// there, and Badger's background work must not have failed.
func (d *DB) Check() error {
	if e := d.broken.Load(); e != nil {
		return *e
	}
	if err := d.gone(); err != nil {
		return err
	}
	if d.inMemory {
		return nil
	}
	if e := d.syncErr.Load(); e != nil {
		return *e
	}
	if _, err := os.Stat(filepath.Join(d.dir, "MANIFEST")); err != nil {
		return fmt.Errorf("badger: data directory: %w", err)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(d.dir, &st); err == nil {
		if st.Flags&stRdonly != 0 {
			return fmt.Errorf("badger: the data directory's file system is read-only: %w", syscall.EROFS)
		}
		if d.minFree > 0 {
			if free := int64(st.Bavail) * st.Bsize; free < d.minFree {
				return fmt.Errorf("badger: the data directory's file system has %d MiB free, under storage.badger.min_free_mib (%d MiB on this volume): %w",
					free>>20, d.minFree>>20, syscall.ENOSPC)
			}
		}
	}
	return nil
}

// stRdonly is statfs's ST_RDONLY mount flag (a file system mounted, or
// remounted after an error, read-only).
const stRdonly = 0x1

func (d *DB) valueLogGC() {
	for i := 0; i < 16; i++ { // bounded: each run rewrites at most one file
		if err := d.db.RunValueLogGC(0.5); err != nil {
			return
		}
	}
}

// hwmKey returns the key of the persisted version high-water mark ('s'
// "vhwm", codec.VersionHWMKey).
func hwmKey() []byte { return []byte{drivers.SystemPrefix, 'v', 'h', 'w', 'm'} }

// errCorruptMark reports a version mark that is not 8 bytes.
var errCorruptMark = errors.New("corrupt version mark")

// Compact flushes the memtables and compacts every level into one, so the
// space of deleted keys comes back. Badger has no direct memtable flush:
// dropping a marker key's prefix flushes them, then Flatten merges the
// levels, discarding deleted keys. Its cost is a rewrite of the live data.
// Badger refuses writes while it drops a prefix (ErrBlockedWrites): the
// flush holds bigMu, so transactions beginning or committing meanwhile
// wait for it instead of failing.
func (d *DB) Compact() error {
	if err := d.flushMemtables(); err != nil {
		return err
	}
	if err := d.db.Flatten(2); err != nil {
		return fmt.Errorf("badger: compact: flatten: %w", err)
	}
	return nil
}

// flushMemtables is Compact's first step, while no transaction begins or
// commits.
func (d *DB) flushMemtables() error {
	d.bigMu.Lock()
	defer d.bigMu.Unlock()
	marker := []byte{drivers.SystemPrefix, 0, 'c', 'o', 'm', 'p', 'a', 'c', 't'}
	if err := d.db.Update(func(tx *bdg.Txn) error { return tx.Set(marker, nil) }); err != nil {
		return fmt.Errorf("badger: compact: %w", err)
	}
	if err := d.db.DropPrefix(marker); err != nil {
		return fmt.Errorf("badger: compact: flush: %w", err)
	}
	return nil
}

// Close stops background work, syncs and closes the store; calls after
// the first return its result.
func (d *DB) Close() error {
	d.closeOnce.Do(func() {
		close(d.stop)
		d.wg.Wait()
		d.watch.close()
		d.closeErr = d.db.Close()
	})
	return d.closeErr
}

// Sync implements drivers.Syncer.
func (d *DB) Sync() error {
	if d.inMemory {
		return nil
	}
	if err := d.db.Sync(); err != nil {
		err = fmt.Errorf("badger: sync: %w", err)
		if d.syncErr.Swap(&err) == nil {
			d.log.Error("storage sync failed", "err", err)
		}
		return err
	}
	d.syncErr.Store(nil)
	return nil
}

// SetDurability changes the durability level at run time (CONFIG SET
// appendfsync): always syncs after each commit (Badger itself does when
// it was opened with always), everysec once a second, no never.
func (d *DB) SetDurability(level string) error {
	switch level {
	case DurabilityAlways, DurabilityEverySec, DurabilityNo:
	default:
		return fmt.Errorf("badger: unknown durability %q", level)
	}
	d.durability.Store(level)
	return nil
}

// SyncsCommits implements drivers.CommitSyncer.
func (d *DB) SyncsCommits() bool {
	return d.syncOpen || d.durability.Load() == DurabilityAlways
}

// Backup implements drivers.Backuper with Badger's backup stream: every
// key as of one read timestamp, so the copy is consistent.
func (d *DB) Backup(w io.Writer) error {
	if _, err := d.db.Backup(w, 0); err != nil {
		return fmt.Errorf("badger: backup: %w", err)
	}
	return nil
}

// Restore implements drivers.Backuper: it loads a backup stream into the
// store, which must hold nothing yet, then reads the version mark the
// backup brought along.
func (d *DB) Restore(r io.Reader) error {
	empty := true
	err := d.db.View(func(tx *bdg.Txn) error {
		it := tx.NewIterator(bdg.IteratorOptions{})
		defer it.Close()
		it.Rewind()
		empty = !it.Valid()
		return nil
	})
	if err != nil {
		return wrap(err)
	}
	if !empty {
		return drivers.ErrNotEmpty
	}
	if err := d.db.Load(r, 256); err != nil {
		return fmt.Errorf("badger: restore: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.loadHWM()
}

// Badger returns the underlying database, for tests and tools.
func (d *DB) Badger() *bdg.DB { return d.db }

func (d *DB) loadHWM() error {
	return d.db.View(func(tx *bdg.Txn) error {
		item, err := tx.Get(hwmKey())
		if errors.Is(err, bdg.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("badger: read version mark: %w", err)
		}
		return item.Value(func(v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("badger: version mark: %w", errCorruptMark)
			}
			d.hwm = binary.BigEndian.Uint64(v)
			d.last = d.hwm
			return nil
		})
	})
}

// NextVersion returns the next hybrid-clock version.
func (d *DB) NextVersion() (uint64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	v := uint64(d.now().UnixMilli()) << 16
	if v <= d.last {
		v = d.last + 1
	}
	if v > d.hwm {
		mark := v + 1000<<16
		d.bigMu.RLock() // not during Compact's flush, which refuses writes
		err := d.db.Update(func(tx *bdg.Txn) error {
			return tx.Set(hwmKey(), binary.BigEndian.AppendUint64(nil, mark))
		})
		d.bigMu.RUnlock()
		if err == nil {
			err = d.db.Sync()
		}
		if err != nil {
			return 0, fmt.Errorf("badger: persist version mark: %w", err)
		}
		d.hwm = mark
	}
	d.last = v
	return v, nil
}

// DeleteKeys deletes keys through a write batch: no conflict tracking,
// commits pipelined (drivers.BlindDeleter).
func (d *DB) DeleteKeys(keys [][]byte) error {
	if err := d.gone(); err != nil {
		return err
	}
	d.bigMu.RLock() // not while a big transaction shows its writes
	defer d.bigMu.RUnlock()
	wb := d.db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return fmt.Errorf("badger: delete keys: %w", wrap(err))
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("badger: delete keys: %w", wrap(err))
	}
	return d.syncCommitted()
}

// syncCommitted makes what was just committed durable when durability is
// always but Badger was not opened syncing every write (CONFIG SET
// appendfsync always at run time).
func (d *DB) syncCommitted() error {
	if !d.syncOpen && !d.inMemory && d.durability.Load() == DurabilityAlways {
		return d.Sync()
	}
	return nil
}

// logAdapter routes Badger's logs to slog; its chatty info lines go to
// Debug. Badger logs on its write path, so nothing is formatted unless the
// level is enabled.
//
// Errors and warnings are rate-limited: Badger retries a failing flush
// once a second, and one line a minute (with how many were held back)
// says as much.
type logAdapter struct {
	l    *slog.Logger
	mu   *sync.Mutex
	last map[string]time.Time // first 60 bytes of a message -> when logged
	held map[string]int
}

func newLogAdapter(l *slog.Logger) logAdapter {
	return logAdapter{l: l, mu: new(sync.Mutex), last: map[string]time.Time{}, held: map[string]int{}}
}

func (a logAdapter) logf(level slog.Level, f string, args []any) {
	if !a.l.Enabled(context.Background(), level) {
		return
	}
	msg := fmt.Sprintf(f, args...)
	if level >= slog.LevelWarn {
		key := msg[:min(len(msg), 60)]
		a.mu.Lock()
		now := time.Now()
		if t, ok := a.last[key]; ok && now.Sub(t) < time.Minute {
			a.held[key]++
			a.mu.Unlock()
			return
		}
		n := a.held[key]
		a.last[key], a.held[key] = now, 0
		if len(a.last) > 1024 { // bounded: forget the oldest lines
			clear(a.last)
		}
		a.mu.Unlock()
		if n > 0 {
			msg += fmt.Sprintf(" (and %d more like it in the last minute)", n)
		}
	}
	a.l.Log(context.Background(), level, msg)
}

func (a logAdapter) Errorf(f string, args ...any)   { a.logf(slog.LevelError, f, args) }
func (a logAdapter) Warningf(f string, args ...any) { a.logf(slog.LevelWarn, f, args) }
func (a logAdapter) Infof(f string, args ...any)    { a.logf(slog.LevelDebug, f, args) }
func (a logAdapter) Debugf(f string, args ...any)   { a.logf(slog.LevelDebug, f, args) }

// Sizes implements drivers.Sizer: the LSM tree's and the value log's
// bytes on disk.
func (d *DB) Sizes() map[string]int64 {
	lsm, vlog := d.db.Size()
	return map[string]int64{"lsm": lsm, "vlog": vlog}
}

// rangePrefix returns the longest prefix every key of [start, end)
// shares: the prefix start and end share, one byte longer when end is the
// first key past start's next byte ([g, h) -> g).
func rangePrefix(start, end []byte) []byte {
	c := commonPrefix(start, end)
	n := len(c)
	if len(start) > n && len(end) == n+1 && start[n] != 0xff && end[n] == start[n]+1 {
		return start[: n+1 : n+1]
	}
	return c
}

// commonPrefix returns the longest prefix a and b share.
func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n:n]
}
