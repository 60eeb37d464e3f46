package store

import (
	"errors"
	"fmt"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

// CacheResolver returns the meta cache of the shard owning a meta key, or
// nil for no caching.
type CacheResolver func(metaKey []byte) *MetaCache

// Tx is one command's view of storage: a driver transaction plus the caches
// of the shards the command holds.
type Tx struct {
	txn     drivers.Txn // &mt
	mt      memberTxn
	drv     drivers.Driver
	db      int        // the selected logical database (codec.NamespaceDB)
	slot    codec.Slot // where db's keys are stored (its DBRecord's slot)
	now     int64
	caches  CacheResolver
	markers *FlushMarkers
	minVer  uint64 // the db's flush marker: lower versions are dead
	seen    seenKeys
	found   foundMemo // the last look-up, for Found
	kbuf    []byte    // scratch for meta keys looked up in seen
	wbuf    []byte    // scratch for the meta keys Warm reads ahead
	warmed  uint64    // what Warm read, kept so that its reads are not dropped
	skbuf   []byte    // scratch for sub-keys handed to a copying Set or Delete
	zbuf    []byte    // scratch for score-index keys (ScoreKeyScratch)
	// metas holds the encoded metas the transaction hands to the driver
	// to keep (SetOwned) back to back: one allocation for many writes.
	metas   drivers.Blocks
	dirty   []int32          // the seen records written, by index (a key written twice: twice)
	records map[int]DBRecord // database records written, published on commit
	// jr records what the transaction did for those who act on it after
	// the commit (journal.go).
	jr      Journal
	err     error            // a failed marker read by Use, reported by the next read
	noTouch bool             // reads do not count as accesses (NoTouch)
	floors  map[int]DBRecord // records read from storage (shared), once per db
	// presumed is the record of database presumedDB as last seen, used
	// until the first operation confirms it (shared store: presume).
	presumed   DBRecord
	presumedDB int
	atRecords  *SnapshotRecords // Env.Records
	ahead      [][]byte         // meta keys to read along with the first operation (Prefetch)
	// memberWrites are the member cache entries this transaction wrote,
	// removed if it ends without committing (members.go); mbuf and nbuf
	// are scratch for the meta keys that find caches and member names.
	memberWrites []memberRef
	listWrites   []listRef
	mbuf, nbuf   []byte
	// writing is the collection whose Put or Remove is running, so the
	// write hook knows a list element from other members.
	writing *Coll
	// lfuSeen holds the meta keys whose LFU counter this command already
	// counted an access of (an LFU policy only: a cached key's look-ups
	// are not kept in seen, and each would count again).
	lfuSeen map[string]struct{}
	// versions are new keys' versions taken ahead (versions.go).
	versions versionPool
	// fx are the writes' effects, for replication (effects.go).
	fx effects
	// prewrites are the versions written ahead of the commit
	// (prewrite.go).
	prewrites  []prewritten
	preWriteOK bool // Env.PreWrite
	// last is the meta cache entry raw found last, served again without
	// the cache's map (a command's look-ups of one key, the keyspace
	// count's after a read) while the cache is unchanged (lastLookup).
	last lastLookup
}

// Env is what transactions share: the store, the shards' caches and the
// flush markers. Caches and markers may be nil. Notify makes transactions
// collect keyspace notifications. Spare, when set, lends the transaction
// what an earlier one left there (Tx.Release).
type Env struct {
	Drv     drivers.Driver
	Caches  CacheResolver
	Markers *FlushMarkers
	Notify  bool
	Spare   *Spare
	// At, when not zero, is the snapshot a read-only transaction reads: a
	// stamp taken earlier from the driver (drivers.Snapshotter). Records,
	// when set, are the flush records read at At, shared by the
	// transactions reading there.
	At      uint64
	Records *SnapshotRecords
	// Values, when set with At, are values read at At already, looked
	// up before the store (SnapshotValues).
	Values *SnapshotValues
	// Effects makes the transaction record its writes' effects (a
	// replication master streams them).
	Effects bool
	// PreWrite lets the transaction write big strings' chunks ahead of
	// its commit (prewrite.go): only for a transaction running one
	// command, not a script or MULTI, since the transaction itself does
	// not see what it pre-wrote, and no single command reads back a
	// string it wrote.
	PreWrite bool
}

// Begin starts a Tx for database db at time now (unix ms).
func (e Env) Begin(writable bool, db int, now int64) (*Tx, error) {
	var seen seenKeys
	if e.Spare != nil && e.Spare.seen.idx != nil {
		seen, e.Spare.seen = e.Spare.seen, seenKeys{}
	} else {
		seen = seenKeys{idx: make(map[string]int32, 2)}
	}
	t := &Tx{mt: memberTxn{lazyTxn: lazyTxn{drv: e.Drv, writable: writable, at: e.At}}, drv: e.Drv, now: now, caches: e.Caches, markers: e.Markers,
		metas: drivers.Blocks{Min: metaBlockSize, Max: metaBlockSize, Own: metaBlockSize / 4},
		seen:  seen, jr: Journal{notify: e.Notify}, fx: effects{collect: e.Effects && writable}}
	t.mt.t = t
	t.txn = &t.mt
	t.preWriteOK = e.PreWrite && writable
	if e.Spare != nil {
		t.versions.rate = e.Spare.versionRate
		t.mt.pool = &t.versions
		t.floors, t.kbuf, e.Spare.floors, e.Spare.kbuf = e.Spare.floors, e.Spare.kbuf, nil, nil
		t.jr.touched.spare, e.Spare.touched = e.Spare.touched, nil
	}
	if e.At != 0 {
		t.atRecords, t.mt.vals = e.Records, e.Values
	}
	if t.markers.Shared() {
		t.presume(db)
		return t, nil
	}
	if err := t.use(db); err != nil {
		t.txn.Rollback()
		return nil, err
	}
	return t, nil
}

// live reports whether r is a key that exists for readers: stored, not
// expired, not flushed.
func (t *Tx) live(r record) bool {
	if !t.stored(r) {
		return false
	}
	if r.meta.Expired(t.now) {
		t.sawExpired(r)
		return false
	}
	return true
}

// sawExpired records r, found expired, for lazy expiry (Journal.Expired):
// a key of the selected database. Its deletion checks again that it is
// due, so a read at an older snapshot may record it too.
func (t *Tx) sawExpired(r record) {
	if r.mk == "" {
		return
	}
	slot, key, err := codec.DecodeMetaKey([]byte(r.mk))
	if err != nil || slot != t.slot {
		return
	}
	t.jr.sawExpired(int(t.db), slot, r.mk, key, r.meta.ExpireAt)
}

// DB returns the selected database.
func (t *Tx) DB() int { return int(t.db) }

// SetNow sets the time later operations use (a group of commands sharing
// one transaction, each at its own time).
func (t *Tx) SetNow(ms int64) {
	t.now = ms
	clear(t.lfuSeen) // each command counts its own access
}

// Now returns the command's time in unix milliseconds.
func (t *Tx) Now() int64 { return t.now }

// Driver returns the underlying transaction, for keyspace-wide operations.
func (t *Tx) Driver() drivers.Txn { return t.txn }

// Commit commits and then publishes the writes to the caches (and any
// flush markers to readers).
func (t *Tx) Commit() error {
	var err error
	if t.markers.Shared() {
		err = t.writeStamps()
	}
	if err == nil {
		err = t.txn.Commit()
	}
	t.settlePreWrites(err == nil)
	if err == nil {
		for db, r := range t.records {
			t.markers.set(db, r)
		}
		t.forgetMemberWrites()
		t.warmPuts()
	} else {
		t.dropMemberWrites()
	}
	for _, i := range t.dirty {
		r := &t.seen.recs[i]
		mk := r.mk
		c := t.cacheFor(mk)
		if c == nil {
			continue
		}
		if err != nil {
			c.remove(mk)
			continue
		}
		e := cached{meta: r.meta, exists: r.exists}
		if r.loaded && r.exists {
			e = withPayload(e, r.meta, r.payload)
		}
		c.put(mk, e, r.hint)
	}
	t.dirty = t.dirty[:0]
	return err
}

// Rollback discards the transaction; cached state is untouched, but for
// the member cache entries of writes not committed, which it removes.
func (t *Tx) Rollback() {
	t.dropMemberWrites()
	t.txn.Rollback()
	t.settlePreWrites(false)
}

// shardCache returns the MetaCache of mk's shard, enabled or not (nil
// without caches).
func (t *Tx) shardCache(mk string) *MetaCache { return t.caches.of(bytesOf(mk)) }

// of returns the MetaCache of meta key mk's shard, enabled or not (nil
// without caches).
func (r CacheResolver) of(mk []byte) *MetaCache {
	if r == nil {
		return nil
	}
	return r(mk)
}

// NoTouch makes the following reads leave the access clock alone (TYPE,
// TTL, EXISTS, OBJECT: Redis's LOOKUP_NOTOUCH); it returns the previous
// setting, to restore.
func (vw Access) NoTouch(on bool) bool {
	t := vw.t
	was := t.noTouch
	t.noTouch = on
	return was
}

// IdleMillis returns how long ago key (in the selected database) was last
// read or written, as the shard's access clock knows (see AccessClock).
func (vw Access) IdleMillis(key []byte) int64 {
	t := vw.t
	mk := string(codec.MetaKey(t.slot, key))
	if c := t.shardCache(mk); c != nil && c.clock != nil {
		return max(t.now-c.lastAccess(mk), 0)
	}
	return 0
}

// SetIdle makes key's last access idle milliseconds ago (RESTORE
// IDLETIME; ignored under an LFU policy, as Redis does).
func (vw Access) SetIdle(key []byte, idle int64) {
	t := vw.t
	mk := string(codec.MetaKey(t.slot, key))
	if c := t.shardCache(mk); c != nil && (c.clock == nil || !c.clock.lfu.On()) {
		c.touch(mk, 0, t.now-idle)
	}
}

// LFU reports whether an LFU maxmemory-policy is in effect: keys then
// keep access counters (Freq), not access times (IdleMillis).
func (vw Access) LFU() bool {
	t := vw.t
	c := t.caches.of(nil)
	return c != nil && c.clock != nil && c.clock.lfu.On()
}

// Freq returns key's LFU counter, decayed to now (OBJECT FREQ).
func (vw Access) Freq(key []byte) int64 {
	t := vw.t
	mk := string(codec.MetaKey(t.slot, key))
	c := t.shardCache(mk)
	if c == nil || c.clock == nil {
		return LFUInitVal
	}
	v, ok := c.lfuValue(mk)
	if !ok {
		return LFUInitVal
	}
	return int64(c.clock.lfu.counter(v, t.now))
}

// SetFreq gives key the LFU counter freq (RESTORE FREQ; ignored unless an
// LFU policy is in effect, as Redis does).
func (vw Access) SetFreq(key []byte, freq int64) {
	t := vw.t
	mk := string(codec.MetaKey(t.slot, key))
	if c := t.shardCache(mk); c != nil && c.clock != nil && c.clock.lfu.On() {
		c.setLFU(mk, minutes(t.now)<<8|uint32(min(max(freq, 0), 255)), t.now)
	}
}

func (t *Tx) cacheFor(mk string) *MetaCache {
	if t.caches == nil {
		return nil
	}
	if c := t.caches(bytesOf(mk)); c != nil && !c.Disabled() {
		return c
	}
	return nil
}

// raw returns the stored state of key, live or expired; with payload set it
// also loads a string's payload.
func (t *Tx) raw(key []byte, payload bool) (string, record, error) {
	mk, r, err := t.lookup(key, payload)
	if err == nil {
		t.found.remember(t, key, r)
	}
	return mk, r, err
}

// lookup is raw, without remembering its answer for Found.
func (t *Tx) lookup(key []byte, payload bool) (string, record, error) {
	t.kbuf = codec.AppendMetaKey(t.kbuf[:0], t.slot, key)
	if t.err != nil {
		return string(t.kbuf), record{}, t.err
	}
	// mk is the key's one string for this transaction: the seen map's,
	// else the cache's when cached (no allocation, and the commit's check
	// of the cache slot compares equal pointers), else a new one.
	r, seen := t.seen.getBytes(t.kbuf)
	mk := r.mk
	if seen && !r.accessed && !t.noTouch {
		if c := t.shardCache(mk); c != nil {
			c.touch(mk, r.hint, t.now)
		}
		r.accessed = true
		t.seen.put(mk, r)
	}
	if seen && (r.loaded || !payload || !r.exists || r.meta.Type != codec.TypeString || r.meta.Chunked) {
		return mk, r, nil
	}
	accessed := r.accessed
	c := t.caches.of(t.kbuf)
	touch := c != nil && c.clock != nil && !seen && !t.noTouch
	if touch {
		accessed = true
	}
	if touch && c.clock.lfu.On() {
		if _, done := t.lfuSeen[string(t.kbuf)]; done {
			touch = false
		} else {
			if t.lfuSeen == nil {
				t.lfuSeen = make(map[string]struct{}, 1)
			}
			t.lfuSeen[string(t.kbuf)] = struct{}{}
		}
	}
	if c != nil && c.Disabled() {
		if touch {
			c.clock.touch(string(t.kbuf), t.now)
		}
		c = nil
	}
	if c != nil {
		ck, e, hint, ok := t.cachedEntry(c)
		if ok && mk == "" {
			mk = ck
		}
		if mk == "" {
			mk = string(t.kbuf)
		}
		if touch {
			c.touch(mk, hint, t.now) // in the entry when cached
		}
		if ok && (e.loaded || !payload || !e.exists || e.meta.Type != codec.TypeString || e.meta.Chunked) {
			// Not kept in seen: until this transaction writes the key
			// (and puts it in seen), the cache entry stays what it is
			// now — only a commit changes it, and no other transaction
			// runs on this shard meanwhile — so the next look-up finds
			// the same there (or, evicted, loads the same committed
			// meta). A repeated touch only sets the same time again.
			return mk, record{mk: mk, meta: e.meta, exists: e.exists, payload: e.payload, loaded: e.loaded, accessed: accessed, hint: hint}, nil
		}
		r.hint = hint
	}
	if mk == "" {
		mk = string(t.kbuf)
	}
	v, err := t.txn.Get(bytesOf(mk))
	if lerr := t.lockRead(mk, key); lerr != nil {
		return mk, record{}, lerr
	}
	if errors.Is(err, drivers.ErrNotFound) {
		r = record{mk: mk, loaded: true, accessed: accessed, hint: r.hint}
		if c != nil {
			r.hint = c.put(mk, cached{}, r.hint)
		}
		t.seen.put(mk, r)
		return mk, r, nil
	}
	if err != nil {
		return mk, record{}, err
	}
	m, p, err := codec.DecodeMeta(v)
	if err != nil {
		return mk, record{}, fmt.Errorf("store: key %q: %w", key, err)
	}
	r = record{mk: mk, meta: m, exists: true, payload: p, loaded: true, accessed: accessed, hint: r.hint}
	if c != nil {
		r.hint = c.put(mk, withPayload(cached{meta: m, exists: true}, m, p), r.hint)
	}
	t.seen.put(mk, r)
	return mk, r, nil
}

// Meta returns the live meta of key, or ok false if it does not exist.
func (t *Tx) Meta(key []byte) (m codec.Meta, ok bool, err error) {
	_, r, err := t.raw(key, false)
	if err != nil || !t.live(r) {
		return codec.Meta{}, false, err
	}
	return r.meta, true, nil
}

// MetaIn is Meta for a key of database db.
func (t *Tx) MetaIn(db int, key []byte) (codec.Meta, bool, error) {
	cur := int(t.db)
	t.Use(db)
	defer t.Use(cur)
	return t.Meta(key)
}

// Type returns the type of key, TypeNone if it does not exist.
func (t *Tx) Type(key []byte) (codec.Type, error) {
	m, ok, err := t.Meta(key)
	if !ok {
		return codec.TypeNone, err
	}
	return m.Type, nil
}

// Exists reports whether key exists.
func (t *Tx) Exists(key []byte) (bool, error) {
	_, ok, err := t.Meta(key)
	return ok, err
}

// Delete removes key; it reports whether a live key was removed.
func (t *Tx) Delete(key []byte) (bool, error) {
	mk, old, err := t.raw(key, false)
	if err != nil {
		return false, err
	}
	return t.del(key, mk, old)
}

// SetExpire sets key's expiry (0 removes it). A time at or before now
// deletes the key. It reports false if the key does not exist.
func (t *Tx) SetExpire(key []byte, expireAt int64) (bool, error) {
	mk, old, err := t.raw(key, true)
	if err != nil || !t.live(old) {
		return false, err
	}
	if expireAt != 0 && expireAt <= t.now {
		return t.del(key, mk, old)
	}
	m := old.meta
	m.ExpireAt = expireAt
	return true, t.write(key, mk, old, m, old.payload)
}

// Rename moves src to dst (replacing dst), keeping the TTL. The caller has
// checked that src exists.
func (t *Tx) Rename(src, dst []byte) error {
	smk, s, err := t.raw(src, true)
	if err != nil {
		return err
	}
	if !t.live(s) {
		return rerr.ErrNoSuchKey
	}
	if smk == string(codec.MetaKey(t.slot, dst)) {
		return nil
	}
	dmk, d, err := t.raw(dst, false)
	if err != nil {
		return err
	}
	m := s.meta
	switch {
	case s.meta.HasSubKeys():
		// Sub-keys embed the user key, so a collection (or chunked string)
		// moves by copy under a new version: O(members). The source version
		// becomes garbage.
		if m, err = t.copyCollection(s, src, dst); err != nil {
			return err
		}
	case t.live(d) && d.meta.Type == codec.TypeString && !d.meta.Chunked:
		m.Version = d.meta.Version
	default:
		if m.Version, err = t.nextVersion(); err != nil {
			return err
		}
	}
	// The source goes first, so notifications read rename_from, rename_to.
	if _, err := t.del(src, smk, s); err != nil {
		return err
	}
	t.signalWhole(dst, m)
	return t.write(dst, dmk, d, m, s.payload)
}

// signalWhole serves the clients blocked on key when a list, sorted set
// or stream appears there whole (RENAME, COPY, MOVE), as Redis's dbAdd
// signals the key ready.
func (t *Tx) signalWhole(key []byte, m codec.Meta) {
	if m.Type == codec.TypeList || m.Type == codec.TypeZSet || m.Type == codec.TypeStream {
		t.signal(key)
	}
}

func (t *Tx) del(key []byte, mk string, old record) (bool, error) {
	return t.remove(key, mk, old, true)
}

// remove deletes key's meta and TTL entry; with garbage set, a collection's
// version is recorded for the GC (not needed when it was emptied member by
// member).
func (t *Tx) remove(key []byte, mk string, old record, garbage bool) (bool, error) {
	if !old.exists {
		return false, nil
	}
	if old.meta.Version >= t.minVer && old.meta.Expired(t.now) {
		t.expired(key)
	}
	if old.meta.ExpireAt != 0 {
		if err := t.txn.Delete(codec.TTLKey(old.meta.ExpireAt, t.slot, key)); err != nil {
			return false, err
		}
	}
	if old.meta.FieldTTL != 0 {
		if err := t.txn.Delete(codec.HashTTLKey(old.meta.FieldTTL, t.slot, key)); err != nil {
			return false, err
		}
	}
	if garbage && old.meta.HasSubKeys() {
		gk := codec.GarbageKey(t.slot, key, old.meta.Version)
		if err := t.txn.Set(gk, nil); err != nil {
			return false, err
		}
		if old.meta.Type.IsCollection() && old.meta.Size > LazyFreeThreshold {
			t.jr.lazy = append(t.jr.lazy, gk)
		}
	}
	if err := t.txn.Delete([]byte(mk)); err != nil {
		return false, err
	}
	if old.meta.Version >= t.minVer {
		// A key a flush marker hides was already gone for every reader:
		// removing it (the GC's flush sweep) changes nothing a WATCH, a
		// tracking client, a notification or a stamp should hear of.
		if old.meta.Expired(t.now) {
			t.touchReaped(key)
		} else {
			t.touch(key)
		}
		t.jr.deleted.add(t.db, key)
		if old.meta.Type == codec.TypeStream {
			t.signal(key) // its blocked XREADGROUP clients are told (UNBLOCKED)
		}
	}
	t.dirty = append(t.dirty, t.seen.put(mk, record{mk: mk, loaded: true, hint: old.hint}))
	return t.live(old), nil
}

// NoteNewClass is the notification class of "new" (a key came into
// existence), Redis's 'n': equal to command.NotifyNew, which this layer
// cannot import.
const NoteNewClass uint16 = 1 << 13

func (t *Tx) write(key []byte, mk string, old record, m codec.Meta, payload []byte) error {
	if old.exists && old.meta.Version >= t.minVer && old.meta.Expired(t.now) {
		t.expired(key)
	}
	if !t.live(old) {
		t.AddNote(NoteNewClass, "new", key)
		if c := t.shardCache(mk); c != nil && c.clock != nil && c.clock.lfu.On() {
			c.setLFU(mk, c.clock.lfu.initial(t.now), t.now) // a new key's counter
		}
	}
	if old.exists && old.meta.ExpireAt != 0 && old.meta.ExpireAt != m.ExpireAt {
		if err := t.txn.Delete(codec.TTLKey(old.meta.ExpireAt, t.slot, key)); err != nil {
			return err
		}
	}
	if m.ExpireAt != 0 && (!old.exists || old.meta.ExpireAt != m.ExpireAt || old.meta.Version != m.Version) {
		if err := t.txn.Set(codec.TTLKey(m.ExpireAt, t.slot, key), codec.EncodeVersion(m.Version)); err != nil {
			return err
		}
	}
	if old.exists && old.meta.FieldTTL != 0 && old.meta.FieldTTL != m.FieldTTL {
		if err := t.txn.Delete(codec.HashTTLKey(old.meta.FieldTTL, t.slot, key)); err != nil {
			return err
		}
	}
	if m.FieldTTL != 0 && (!old.exists || old.meta.FieldTTL != m.FieldTTL) {
		if err := t.txn.Set(codec.HashTTLKey(m.FieldTTL, t.slot, key), nil); err != nil {
			return err
		}
	}
	if old.exists && old.meta.HasSubKeys() && old.meta.Version != m.Version {
		if err := t.txn.Set(codec.GarbageKey(t.slot, key, old.meta.Version), nil); err != nil {
			return err
		}
	}
	// The encoded meta and key are this call's own: the txn may keep them.
	own := t.ownMetaKey(key, mk)
	if err := drivers.SetOwned(t.txn, own, t.encodeMeta(m, payload)); err != nil {
		return err
	}
	t.touch(key)
	if t.live(old) && old.meta.Type == codec.TypeStream && old.meta.Version != m.Version {
		// A stream replaced by another value: its blocked XREADGROUP
		// clients are told (UNBLOCKED), as Redis's
		// signalDeletedKeyAsReady does.
		t.signal(key)
	}
	// seen's map key is own, whose bytes are cached (mk's, the meta
	// cache's string, were not); the record keeps mk (see lookup).
	t.dirty = append(t.dirty, t.seen.put(stringOf(own), record{mk: mk, meta: m, exists: true, payload: payload, loaded: true, hint: old.hint, accessed: true}))
	return nil
}

// CountStored counts the keys of the selected database stored now,
// those expired but not yet deleted included: Redis's DBSIZE, which
// counts a key until its expiry deletes it (the GC's pass, or a command
// that finds it expired).
func (t *Tx) CountStored() (int64, error) {
	if t.err != nil {
		return 0, t.err
	}
	from, end := codec.MetaRange(t.slot)
	var n int64
	err := t.txn.Iterate(from, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		m, _, err := codec.DecodeMeta(v)
		if err != nil {
			return false, fmt.Errorf("store: key %q: %w", k, err)
		}
		if m.Version >= t.minVer {
			n++
		}
		return true, nil
	})
	return n, err
}
