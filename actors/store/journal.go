package store

import (
	"github.com/cespare/xxhash/v2"

	"github.com/rekv/rekv/codec"
)

// Journal is what a transaction did that others act on after it
// commits: the keys it wrote (WATCH, client-side caching), deleted and
// made ready (blocked clients), the databases it flushed or swapped, and
// the keyspace notifications and Pub/Sub messages to publish. It is
// embedded in Tx.
type Journal struct {
	flushed []int    // databases flushed (their watches break)
	swapped [][2]int // databases swapped
	ready   refSet   // list keys that gained elements
	touched refSet   // keys written (WATCH, notifications)
	// reaped are the touched keys whose meta was removed because it had
	// expired (lazy expiry, the GC's), rewritten those of them touched
	// otherwise too: a key only reaped changed nothing for a WATCH that
	// found it already expired (Redis's watchedKey.expired).
	reaped, rewritten refSet
	deleted           refSet // keys whose meta was removed
	notify            bool   // keyspace notifications are on: collect notes
	notes             []Note
	msgs              []Message
	// expired are the keys the transaction found expired but stored
	// (Expired), by meta key.
	expired []ExpiredRef
	// lazy are the garbage entries it wrote for values of more than
	// LazyFreeThreshold members (Lazy).
	lazy [][]byte
}

// LazyFreeThreshold is Redis's LAZYFREE_THRESHOLD: a value of more
// members is one Redis frees in the background (INFO's
// lazyfree_pending_objects until it is done, lazyfreed_objects after).
const LazyFreeThreshold = 64

// Lazy returns the garbage entries the transaction wrote for values of
// more than LazyFreeThreshold members: pending until the GC has
// reclaimed them.
func (j *Journal) Lazy() [][]byte { return j.lazy }

// ExpiredRef is a key a command found expired and still stored: it is
// deleted then (lazy expiry, as Redis deletes an expired key a command
// looks up), without waiting for the GC's pass.
type ExpiredRef struct {
	DB       int
	Slot     codec.Slot // where the database's keys are stored
	Key      []byte
	ExpireAt int64
	mk       string
}

// Expired returns the keys the transaction found expired and still
// stored, but those it wrote since (a write replaced or removed them).
func (j *Journal) Expired() []ExpiredRef {
	if len(j.expired) == 0 {
		return nil
	}
	out := j.expired[:0:0]
	for _, e := range j.expired {
		if !j.touched.contains(e.DB, e.Key) {
			out = append(out, e)
		}
	}
	return out
}

// sawExpired records a key found expired (once per key).
func (j *Journal) sawExpired(db int, slot codec.Slot, mk string, key []byte, expireAt int64) {
	for _, e := range j.expired {
		if e.mk == mk {
			return
		}
	}
	j.expired = append(j.expired, ExpiredRef{DB: db, Slot: slot, Key: key, ExpireAt: expireAt, mk: mk})
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
	// spare, when set, is an empty map the index is built in (a Spare's,
	// which another transaction's set grew).
	spare map[uint64]int32
}

func (s *refSet) add(db int, key []byte) {
	if n := len(s.list); n > 0 && s.list[n-1].DB == db && string(s.list[n-1].Key) == string(key) {
		return
	}
	if s.idx == nil && len(s.list) >= 8 {
		if s.idx, s.spare = s.spare, nil; s.idx == nil {
			s.idx = make(map[uint64]int32, 16)
		}
		for i, r := range s.list {
			h := refHash(r.DB, r.Key)
			if _, ok := s.idx[h]; !ok {
				s.idx[h] = int32(i)
			}
		}
	}
	if s.idx != nil {
		h := refHash(db, key)
		if i, ok := s.idx[h]; ok {
			if r := s.list[i]; r.DB == db && string(r.Key) == string(key) || s.scan(db, key) {
				return
			}
		} else {
			s.idx[h] = int32(len(s.list))
		}
	} else if s.scan(db, key) {
		return
	}
	s.list = append(s.list, KeyRef{db, key})
}

// contains reports whether (db, key) is in the set.
func (s *refSet) contains(db int, key []byte) bool {
	if s.idx != nil {
		if i, ok := s.idx[refHash(db, key)]; ok {
			if r := s.list[i]; r.DB == db && string(r.Key) == string(key) {
				return true
			}
		}
	}
	return s.scan(db, key)
}

// scan reports whether (db, key) is in the list, looking at every entry.
func (s *refSet) scan(db int, key []byte) bool {
	for _, r := range s.list {
		if r.DB == db && string(r.Key) == string(key) {
			return true
		}
	}
	return false
}

// refHash hashes (db, key) for refSet's index.
func refHash(db int, key []byte) uint64 {
	return xxhash.Sum64(key) ^ uint64(db)*0x9e3779b97f4a7c15
}

// KeyRef names a key of a database.
type KeyRef struct {
	DB  int
	Key []byte
}

// Ready returns the list keys that gained elements in this transaction
// (BLPOP and friends wait on them), in the order they were first signalled.
func (j *Journal) Ready() []KeyRef { return j.ready.list }

// Touched returns the keys this transaction wrote (members included), in
// the order first written.
func (j *Journal) Touched() []KeyRef { return j.touched.list }

// Wrote reports whether this transaction wrote key of db.
func (j *Journal) Wrote(db int, key []byte) bool { return j.touched.contains(db, key) }

// Deleted returns the keys whose meta this transaction removed.
func (j *Journal) Deleted() []KeyRef { return j.deleted.list }

// Flushes returns the databases this transaction flushed.
func (j *Journal) Flushes() []int { return j.flushed }

// Swaps returns the pairs of databases this transaction swapped.
func (j *Journal) Swaps() [][2]int { return j.swapped }

// Notifying reports whether notifications are collected.
func (j *Journal) Notifying() bool { return j.notify }

// AddNote records a keyspace notification for key in the current database
// (when notifications are on).
func (t *Tx) AddNote(class uint16, event string, key []byte) {
	t.jr.AddNoteIn(int(t.db), class, event, key)
}

// AddNoteIn records a notification for a key of database db.
func (j *Journal) AddNoteIn(db int, class uint16, event string, key []byte) {
	if j.notify {
		j.notes = append(j.notes, Note{DB: db, Class: class, Event: event, Key: key})
	}
}

// NoteCount returns how many notifications are recorded.
func (j *Journal) NoteCount() int { return len(j.notes) }

// TakeNotes removes and returns the notifications recorded from position
// from on.
func (j *Journal) TakeNotes(from int) []Note {
	if from >= len(j.notes) {
		return nil
	}
	tail := append([]Note(nil), j.notes[from:]...)
	j.notes = j.notes[:from]
	return tail
}

// NotesTo moves the notifications recorded from position from on to
// position i (LMOVE announces its push, and the destination's "new", before
// its pop, as Redis does).
func (j *Journal) NotesTo(i, from int) {
	if i >= from || from >= len(j.notes) {
		return
	}
	tail := append([]Note(nil), j.notes[from:]...)
	copy(j.notes[i+len(tail):], j.notes[i:from])
	copy(j.notes[i:], tail)
}

// Message is a Pub/Sub message a command published (PUBLISH inside a
// script): it is delivered only after the transaction commits.
type Message struct {
	Channel, Msg []byte
	Shard        bool   // a shard channel's (SPUBLISH)
	NS           uint32 // the namespace it is published in
}

// AddMessage queues a Pub/Sub message of namespace ns for delivery after
// commit.
func (j *Journal) AddMessage(ns uint32, channel, msg []byte, shard bool) {
	j.msgs = append(j.msgs, Message{channel, msg, shard, ns})
}

// Messages returns the queued Pub/Sub messages.
func (j *Journal) Messages() []Message { return j.msgs }

// Notes returns the notifications recorded, in order.
func (j *Journal) Notes() []Note { return j.notes }

func (t *Tx) signal(key []byte) { t.jr.ready.add(t.db, key) }

func (t *Tx) touch(key []byte) {
	t.wrote()
	t.jr.touched.add(t.db, key)
	if len(t.jr.reaped.list) > 0 && t.jr.reaped.contains(t.db, key) {
		t.jr.rewritten.add(t.db, key)
	}
}

// touchReaped touches key, whose meta is removed because it expired.
func (t *Tx) touchReaped(key []byte) {
	if !t.jr.touched.contains(t.db, key) {
		t.jr.reaped.add(t.db, key)
	} else {
		t.jr.rewritten.add(t.db, key) // written before in this transaction
	}
	t.wrote()
	t.jr.touched.add(t.db, key)
}

// Reaped returns the touched keys this transaction only removed because
// they had expired.
func (j *Journal) Reaped() []KeyRef {
	if len(j.reaped.list) == 0 {
		return nil
	}
	out := j.reaped.list[:0:0]
	for _, r := range j.reaped.list {
		if !j.rewritten.contains(r.DB, r.Key) {
			out = append(out, r)
		}
	}
	return out
}
