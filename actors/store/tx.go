package store

import (
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"

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
	db      uint8 // the selected logical database
	slot    uint8 // where db's keys are stored (its DBRecord's slot)
	now     int64
	caches  CacheResolver
	markers *FlushMarkers
	minVer  uint64 // the db's flush marker: lower versions are dead
	seen    seenKeys
	kbuf    []byte // scratch for meta keys looked up in seen
	dirty   []string
	records map[int]DBRecord // database records written, published on commit
	flushed []int            // databases flushed (their watches break)
	swapped [][2]int         // databases swapped
	ready   refSet           // list keys that gained elements
	touched refSet           // keys written (WATCH, notifications)
	deleted refSet           // keys whose meta was removed
	notify  bool             // keyspace notifications are on: collect notes
	notes   []Note
	msgs    []Message
	err     error            // a failed marker read by Use, reported by the next read
	noTouch bool             // reads do not count as accesses (NoTouch)
	floors  map[int]DBRecord // records read from storage (shared), once per db
	// memberWrites are the member cache entries this transaction wrote,
	// removed if it ends without committing (members.go); mbuf and nbuf
	// are scratch for the meta keys that find caches and member names.
	memberWrites []memberRef
	listWrites   []listRef
	mbuf, nbuf   []byte
	// writing is the collection whose Put or Remove is running, so the
	// write hook knows a list element from other members.
	writing *Coll
}

// Note is a keyspace notification to publish after the commit.
type Note struct {
	DB    int
	Class uint16 // command.NotifyClass
	Event string
	Key   []byte
}

// refSet is an insertion-ordered set of keys.
type refSet struct {
	list []KeyRef
	// idx, built once the list is long, maps a hash of (db, key) to the
	// first entry of list with that hash; entries sharing a hash with an
	// earlier one (a collision, or never) are found by a scan.
	idx map[uint64]int32
}

func (s *refSet) add(db uint8, key []byte) {
	if n := len(s.list); n > 0 && s.list[n-1].DB == int(db) && string(s.list[n-1].Key) == string(key) {
		return
	}
	if s.idx == nil && len(s.list) >= 8 {
		s.idx = make(map[uint64]int32, 16)
		for i, r := range s.list {
			h := refHash(uint8(r.DB), r.Key)
			if _, ok := s.idx[h]; !ok {
				s.idx[h] = int32(i)
			}
		}
	}
	if s.idx != nil {
		h := refHash(db, key)
		if i, ok := s.idx[h]; ok {
			if r := s.list[i]; r.DB == int(db) && string(r.Key) == string(key) || s.scan(db, key) {
				return
			}
		} else {
			s.idx[h] = int32(len(s.list))
		}
	} else if s.scan(db, key) {
		return
	}
	s.list = append(s.list, KeyRef{int(db), key})
}

// scan reports whether (db, key) is in the list, looking at every entry.
func (s *refSet) scan(db uint8, key []byte) bool {
	for _, r := range s.list {
		if r.DB == int(db) && string(r.Key) == string(key) {
			return true
		}
	}
	return false
}

// refHash hashes (db, key) for refSet's index.
func refHash(db uint8, key []byte) uint64 {
	return xxhash.Sum64(key) ^ uint64(db)*0x9e3779b97f4a7c15
}

// KeyRef names a key of a database.
type KeyRef struct {
	DB  int
	Key []byte
}

type record struct {
	mk       string // the meta key, as the seen map holds it
	meta     codec.Meta
	exists   bool // stored, possibly expired
	payload  []byte
	loaded   bool  // payload is known
	accessed bool  // recorded in the access clock by this transaction
	hint     int32 // the key's MetaCache slot hint (0: none)
}

// seenKeys holds the records of the keys a transaction looked up or
// wrote, by meta key. The records live in a slice the map indexes: a
// record (152 bytes) is past the size Go's maps store inline (128), so a
// map of records allocated one per key; a reused seenKeys allocates
// nothing.
type seenKeys struct {
	idx  map[string]int32
	recs []record
}

// get returns mk's record.
func (s *seenKeys) get(mk string) (record, bool) { return s.getBytes(bytesOf(mk)) }

// getBytes is get for a key in a scratch buffer (the map look-up's
// conversion copies nothing).
func (s *seenKeys) getBytes(mk []byte) (record, bool) {
	i, ok := s.idx[string(mk)]
	if !ok {
		return record{}, false
	}
	return s.recs[i], true
}

// put sets mk's record.
func (s *seenKeys) put(mk string, r record) {
	if i, ok := s.idx[mk]; ok {
		s.recs[i] = r
		return
	}
	s.idx[mk] = int32(len(s.recs))
	s.recs = append(s.recs, r)
}

// reset forgets every record, keeping the memory.
func (s *seenKeys) reset() {
	clear(s.idx)
	clear(s.recs) // no payload kept alive
	s.recs = s.recs[:0]
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
}

// Spare keeps what a finished transaction leaves for the next one begun
// with it: its map of keys looked up, emptied, so a shard's transactions
// (a group of hundreds of writes each) do not grow a new map every time.
// It is not safe for concurrent use: one per shard, whose transactions
// run one at a time.
type Spare struct{ seen seenKeys }

// maxSpareSeen bounds the map a Spare keeps: one left by a transaction
// that looked up many keys is dropped rather than kept forever.
const maxSpareSeen = 1024

// Begin starts a Tx for database db at time now (unix ms).
func (e Env) Begin(writable bool, db int, now int64) (*Tx, error) {
	var seen seenKeys
	if e.Spare != nil && e.Spare.seen.idx != nil {
		seen, e.Spare.seen = e.Spare.seen, seenKeys{}
	} else {
		seen = seenKeys{idx: make(map[string]int32, 2)}
	}
	t := &Tx{mt: memberTxn{lazyTxn: lazyTxn{drv: e.Drv, writable: writable}}, drv: e.Drv, now: now, caches: e.Caches, markers: e.Markers,
		seen: seen, notify: e.Notify}
	t.mt.t = t
	t.txn = &t.mt
	if err := t.use(db); err != nil {
		t.txn.Rollback()
		return nil, err
	}
	return t, nil
}

// live reports whether r is a key that exists for readers: stored, not
// expired, not flushed.
func (t *Tx) live(r record) bool {
	return r.exists && !r.meta.Expired(t.now) && r.meta.Version >= t.minVer
}

// DB returns the selected database.
func (t *Tx) DB() int { return int(t.db) }

// SetNow sets the time later operations use (a group of commands sharing
// one transaction, each at its own time).
func (t *Tx) SetNow(ms int64) { t.now = ms }

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
	if err == nil {
		for db, r := range t.records {
			t.markers.set(db, r)
		}
		t.forgetMemberWrites()
	} else {
		t.dropMemberWrites()
	}
	for _, mk := range t.dirty {
		c := t.cacheFor(mk)
		if c == nil {
			continue
		}
		if err != nil {
			c.remove(mk)
			continue
		}
		r, _ := t.seen.get(mk)
		e := cached{meta: r.meta, exists: r.exists}
		if r.loaded && r.exists {
			e = withPayload(e, r.meta, r.payload)
		}
		c.put(mk, e, r.hint)
	}
	t.dirty = t.dirty[:0]
	return err
}

// Ready returns the list keys that gained elements in this transaction
// (BLPOP and friends wait on them), in the order they were first signalled.
func (t *Tx) Ready() []KeyRef { return t.ready.list }

// Touched returns the keys this transaction wrote (members included), in
// the order first written.
func (t *Tx) Touched() []KeyRef { return t.touched.list }

// Deleted returns the keys whose meta this transaction removed.
func (t *Tx) Deleted() []KeyRef { return t.deleted.list }

// Flushes returns the databases this transaction flushed.
func (t *Tx) Flushes() []int { return t.flushed }

// Swaps returns the pairs of databases this transaction swapped.
func (t *Tx) Swaps() [][2]int { return t.swapped }

// Notifying reports whether notifications are collected.
func (t *Tx) Notifying() bool { return t.notify }

// AddNote records a keyspace notification for key in the current database
// (when notifications are on).
func (t *Tx) AddNote(class uint16, event string, key []byte) {
	if t.notify {
		t.notes = append(t.notes, Note{DB: int(t.db), Class: class, Event: event, Key: key})
	}
}

// AddNoteIn records a notification for a key of database db.
func (t *Tx) AddNoteIn(db int, class uint16, event string, key []byte) {
	if t.notify {
		t.notes = append(t.notes, Note{DB: db, Class: class, Event: event, Key: key})
	}
}

// NoteCount returns how many notifications are recorded.
func (t *Tx) NoteCount() int { return len(t.notes) }

// TakeNotes removes and returns the notifications recorded from position
// from on.
func (t *Tx) TakeNotes(from int) []Note {
	if from >= len(t.notes) {
		return nil
	}
	tail := append([]Note(nil), t.notes[from:]...)
	t.notes = t.notes[:from]
	return tail
}

// NotesTo moves the notifications recorded from position from on to
// position i (LMOVE announces its push, and the destination's "new", before
// its pop, as Redis does).
func (t *Tx) NotesTo(i, from int) {
	if i >= from || from >= len(t.notes) {
		return
	}
	tail := append([]Note(nil), t.notes[from:]...)
	copy(t.notes[i+len(tail):], t.notes[i:from])
	copy(t.notes[i:], tail)
}

// Message is a Pub/Sub message a command published (PUBLISH inside a
// script): it is delivered only after the transaction commits.
type Message struct {
	Channel, Msg []byte
	Shard        bool // a shard channel's (SPUBLISH)
}

// AddMessage queues a Pub/Sub message for delivery after commit.
func (t *Tx) AddMessage(channel, msg []byte, shard bool) {
	t.msgs = append(t.msgs, Message{channel, msg, shard})
}

// Messages returns the queued Pub/Sub messages.
func (t *Tx) Messages() []Message { return t.msgs }

// Notes returns the notifications recorded, in order.
func (t *Tx) Notes() []Note { return t.notes }

// Use switches the database later operations address (SELECT inside
// MULTI); the transaction's state is keyed by database, so it stays valid.
func (t *Tx) Use(db int) {
	if err := t.use(db); err != nil && t.err == nil {
		t.err = err
	}
}

func (t *Tx) use(db int) error {
	r, err := t.Record(db)
	t.db, t.slot, t.minVer = uint8(db), r.Slot, r.Marker
	return err
}

// Slot returns the slot the selected database's keys are stored under.
func (t *Tx) Slot() int { return int(t.slot) }

// Record returns database db's record as this transaction sees it: one it
// wrote, else (shared store) the one in its snapshot, read once per
// database — the Use of every grouped command would otherwise read it
// again — else the one held in memory.
func (t *Tx) Record(db int) (DBRecord, error) {
	if r, ok := t.records[db]; ok {
		return r, nil
	}
	if r, ok := t.floors[db]; ok {
		return r, nil
	}
	r, err := t.markers.Record(t.txn, db)
	if err == nil && t.markers.Shared() {
		if t.floors == nil {
			t.floors = make(map[int]DBRecord, 1)
		}
		t.floors[db] = r
	}
	return r, err
}

// slotOf returns the slot of database db (see Record); an error is kept
// for the next read, as Use does.
func (t *Tx) slotOf(db int) uint8 {
	if db == int(t.db) {
		return t.slot
	}
	r, err := t.Record(db)
	if err != nil && t.err == nil {
		t.err = err
	}
	return r.Slot
}

func (t *Tx) signal(key []byte) { t.ready.add(t.db, key) }

func (t *Tx) touch(key []byte) { t.touched.add(t.db, key) }

// Rollback discards the transaction; cached state is untouched, but for
// the member cache entries of writes not committed, which it removes.
func (t *Tx) Rollback() {
	t.dropMemberWrites()
	t.txn.Rollback()
}

// Release hands t's map of keys looked up, emptied, to s for the next
// transaction begun with it. t, committed or rolled back, must not be
// used afterwards except for Touched, Ready, Flushes, Swaps and Notes.
func (t *Tx) Release(s *Spare) {
	if s == nil || t.seen.idx == nil || len(t.seen.idx) > maxSpareSeen {
		return
	}
	t.seen.reset()
	s.seen, t.seen = t.seen, seenKeys{}
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
func (t *Tx) NoTouch(on bool) bool {
	was := t.noTouch
	t.noTouch = on
	return was
}

// IdleMillis returns how long ago key (in the selected database) was last
// read or written, as the shard's access clock knows (see AccessClock).
func (t *Tx) IdleMillis(key []byte) int64 {
	mk := string(codec.MetaKey(t.slot, key))
	if c := t.shardCache(mk); c != nil && c.clock != nil {
		return max(t.now-c.lastAccess(mk), 0)
	}
	return 0
}

// SetIdle makes key's last access idle milliseconds ago (RESTORE IDLETIME).
func (t *Tx) SetIdle(key []byte, idle int64) {
	mk := string(codec.MetaKey(t.slot, key))
	if c := t.shardCache(mk); c != nil {
		c.touch(mk, 0, t.now-idle)
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
	if c != nil && c.Disabled() {
		if touch {
			c.clock.touch(string(t.kbuf), t.now)
		}
		c = nil
	}
	if c != nil {
		ck, e, hint, ok := c.lookup(t.kbuf)
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

// GetString returns the string at key; ok is false if the key does not
// exist; the error is rerr.ErrWrongType for another type.
func (t *Tx) GetString(key []byte) (val []byte, ok bool, err error) {
	// One look-up: raw loads a payload only for an inline string.
	_, r, err := t.raw(key, true)
	if err != nil || !t.live(r) {
		return nil, false, err
	}
	if r.meta.Type != codec.TypeString {
		return nil, false, rerr.ErrWrongType
	}
	if r.meta.Chunked {
		s := &Str{t: t, key: key, meta: r.meta, exists: true}
		v, err := s.Value()
		return v, err == nil, err
	}
	return r.payload, true, nil
}

// SetString stores val at key with expiry expireAt (0 for none), replacing
// whatever was there. The transaction may keep val until it ends: callers
// must not modify it.
func (t *Tx) SetString(key, val []byte, expireAt int64) error {
	mk, old, err := t.raw(key, false)
	if err != nil {
		return err
	}
	if expireAt != 0 && expireAt <= t.now {
		// Already expired, as Redis does for SET with a past EXAT: the key
		// ends up deleted.
		_, err := t.del(key, mk, old)
		return err
	}
	if len(val) > codec.StringInlineMax {
		return t.setChunked(key, mk, old, val, expireAt)
	}
	m := codec.Meta{Type: codec.TypeString, ExpireAt: expireAt}
	if t.live(old) && old.meta.Type == codec.TypeString && !old.meta.Chunked {
		m.Version = old.meta.Version
	} else if m.Version, err = t.drv.NextVersion(); err != nil {
		return err
	}
	return t.write(key, mk, old, m, val)
}

// SetStringKeepTTL stores val at key, keeping the expiry of a live key.
func (t *Tx) SetStringKeepTTL(key, val []byte) error {
	_, old, err := t.raw(key, false)
	if err != nil {
		return err
	}
	var expireAt int64
	if t.live(old) {
		expireAt = old.meta.ExpireAt
	}
	return t.SetString(key, val, expireAt)
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

// Flush empties db (FLUSHDB) by writing its flush marker: a new version,
// below which every meta of db is dead. The caller holds every shard and
// purges their caches.
func (t *Tx) Flush(db int) error {
	r, err := t.Record(db)
	if err != nil {
		return err
	}
	if r.Marker, err = t.drv.NextVersion(); err != nil {
		return err
	}
	if err := t.writeRecord(db, r); err != nil {
		return err
	}
	t.flushed = append(t.flushed, db)
	return nil
}

// Swap exchanges databases a and b (SWAPDB) by exchanging their records:
// no key moves. The caller holds every shard.
func (t *Tx) Swap(a, b int) error {
	ra, err := t.Record(a)
	if err != nil {
		return err
	}
	rb, err := t.Record(b)
	if err != nil {
		return err
	}
	if err := t.writeRecord(a, rb); err != nil {
		return err
	}
	if err := t.writeRecord(b, ra); err != nil {
		return err
	}
	t.swapped = append(t.swapped, [2]int{a, b})
	return nil
}

// writeRecord stores db's record; the selected database follows it.
func (t *Tx) writeRecord(db int, r DBRecord) error {
	if err := t.txn.Set(codec.FlushMarkerKey(uint8(db)), codec.EncodeDBRecord(r.Marker, r.Slot)); err != nil {
		return err
	}
	if t.records == nil {
		t.records = map[int]DBRecord{}
	}
	t.records[db] = r
	if db == int(t.db) {
		t.slot, t.minVer = r.Slot, r.Marker
	}
	return nil
}

// deadIn reports whether a meta stored under slot with version v is dead
// by FLUSHDB.
func (t *Tx) deadIn(slot uint8, v uint64) bool {
	for _, r := range t.records {
		if r.Slot == slot {
			return v < r.Marker
		}
	}
	return t.markers.Dead(int(slot), v)
}

// ReclaimFlushed is the GC's removal of a meta hidden by a flush marker: if
// key's stored meta is dead that way, it is deleted with its TTL entry (a
// collection's version left as garbage). It reports whether it removed one.
func (t *Tx) ReclaimFlushed(key []byte) (bool, error) {
	mk, r, err := t.raw(key, false)
	if err != nil || !r.exists || r.meta.Version >= t.minVer {
		return false, err
	}
	_, err = t.del(key, mk, r)
	return err == nil, err
}

// ExpireDue is the GC's expiry of one TTL-index entry: if key's meta still
// expires at expireAt and that time has passed, the key is deleted (its
// TTL entry removed, a collection's version left as garbage). An entry no
// meta matches any more is stale and is removed. It reports whether a key
// was expired.
func (t *Tx) ExpireDue(key []byte, expireAt int64) (bool, error) {
	mk, r, err := t.raw(key, false)
	if err != nil {
		return false, err
	}
	if r.exists && r.meta.ExpireAt == expireAt {
		if expireAt > t.now || r.meta.Version < t.minVer {
			return false, nil // not yet; or flushed: the flush sweep's (no event)
		}
		_, err := t.del(key, mk, r)
		return err == nil, err
	}
	return false, t.txn.Delete(codec.TTLKey(expireAt, t.slot, key))
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
		if m.Version, err = t.drv.NextVersion(); err != nil {
			return err
		}
	}
	// The source goes first, so notifications read rename_from, rename_to.
	if _, err := t.del(src, smk, s); err != nil {
		return err
	}
	return t.write(dst, dmk, d, m, s.payload)
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
	if old.meta.ExpireAt != 0 {
		if err := t.txn.Delete(codec.TTLKey(old.meta.ExpireAt, t.slot, key)); err != nil {
			return false, err
		}
	}
	if garbage && old.meta.HasSubKeys() {
		if err := t.txn.Set(codec.GarbageKey(t.slot, key, old.meta.Version), nil); err != nil {
			return false, err
		}
	}
	if err := t.txn.Delete([]byte(mk)); err != nil {
		return false, err
	}
	if old.meta.Version >= t.minVer {
		// A key a flush marker hides was already gone for every reader:
		// removing it (the GC's flush sweep) changes nothing a WATCH, a
		// tracking client, a notification or a stamp should hear of.
		t.touch(key)
		t.deleted.add(t.db, key)
	}
	t.seen.put(mk, record{mk: mk, loaded: true, hint: old.hint})
	t.dirty = append(t.dirty, mk)
	return t.live(old), nil
}

// NoteNewClass is the notification class of "new" (a key came into
// existence), Redis's 'n': equal to command.NotifyNew, which this layer
// cannot import.
const NoteNewClass uint16 = 1 << 13

func (t *Tx) write(key []byte, mk string, old record, m codec.Meta, payload []byte) error {
	if !t.live(old) {
		t.AddNote(NoteNewClass, "new", key)
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
	if old.exists && old.meta.HasSubKeys() && old.meta.Version != m.Version {
		if err := t.txn.Set(codec.GarbageKey(t.slot, key, old.meta.Version), nil); err != nil {
			return err
		}
	}
	// The encoded meta is this call's own: the transaction may keep it.
	if err := drivers.SetOwned(t.txn, bytesOf(mk), codec.AppendMeta(make([]byte, 0, codec.MetaLen(m, payload)), m, payload)); err != nil {
		return err
	}
	t.touch(key)
	t.seen.put(mk, record{mk: mk, meta: m, exists: true, payload: payload, loaded: true, hint: old.hint})
	t.dirty = append(t.dirty, mk)
	return nil
}

// ScanMeta calls fn for each live key of the selected db from user key
// start on (inclusive), in key order, until fn returns false.
func (t *Tx) ScanMeta(start []byte, fn func(key []byte, m codec.Meta) (bool, error)) error {
	if t.err != nil {
		return t.err
	}
	from, end := codec.MetaRange(t.slot)
	from = append(from, start...)
	return t.txn.Iterate(from, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		_, key, err := codec.DecodeMetaKey(k)
		if err != nil {
			return false, err
		}
		m, _, err := codec.DecodeMeta(v)
		if err != nil {
			return false, fmt.Errorf("store: key %q: %w", key, err)
		}
		if m.Expired(t.now) || m.Version < t.minVer {
			return true, nil
		}
		return fn(key, m)
	})
}

// CountKeys counts the live keys of every database, and those of them with
// a TTL, by walking every meta record (INFO keyspace).
func (t *Tx) CountKeys() (keys, expires [Databases]int64, err error) {
	var dbOf [Databases]int // slot -> database
	for db := range dbOf {
		r, err := t.Record(db)
		if err != nil {
			return keys, expires, err
		}
		dbOf[r.Slot] = db
	}
	start, end := codec.MetaRangeAll()
	err = t.txn.Iterate(start, end, drivers.IterOptions{}, func(k, v []byte) (bool, error) {
		slot, _, err := codec.DecodeMetaKey(k)
		if err != nil {
			return false, err
		}
		m, _, err := codec.DecodeMeta(v)
		if err != nil {
			return false, err
		}
		if int(slot) < Databases && !m.Expired(t.now) && !t.deadIn(slot, m.Version) {
			db := dbOf[slot]
			keys[db]++
			if m.ExpireAt != 0 {
				expires[db]++
			}
		}
		return true, nil
	})
	return keys, expires, err
}

// System returns the value of a system record (codec's 's' family), nil
// when missing.
func (t *Tx) System(key []byte) ([]byte, error) {
	v, err := t.txn.Get(key)
	if errors.Is(err, drivers.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// SetSystem writes a system record; DeleteSystem removes one.
func (t *Tx) SetSystem(key, val []byte) error { return t.txn.Set(key, val) }

// DeleteSystem removes a system record.
func (t *Tx) DeleteSystem(key []byte) error { return t.txn.Delete(key) }

// ScanSystem calls fn for every system record under prefix, in key order.
func (t *Tx) ScanSystem(prefix []byte, fn func(key, val []byte) (bool, error)) error {
	return t.txn.Iterate(prefix, codec.PrefixEnd(prefix), drivers.IterOptions{}, fn)
}
