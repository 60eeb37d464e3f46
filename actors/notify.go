package actors

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
)

// Keyspace notifications.
//
// When some class is enabled, transactions collect notes and the engine
// publishes them after the commit. Each command's Spec names its event
// (Event, or KeyEvent per key), applied to every key it wrote
// (Tx.Touched); a key a command deleted as a side effect (a list popped
// empty) also gets Redis's generic "del". Commands flagged OwnEvents (list
// pushes and pops, whose event depends on the side) note themselves.

// noteEvents records the notifications of one command that wrote the keys
// tx.Touched()[tFrom:] and deleted tx.Deleted()[dFrom:], as its Spec
// describes them (Event, KeyEvent, EventTTL, OwnEvents).
func noteEvents(tx *store.Tx, spec *command.Spec, tFrom, dFrom, nFrom int) {
	own := spec.Flags&command.OwnEvents != 0
	if !tx.Journal().Notifying() || (spec.Event == "" && spec.KeyEvent == nil && !own) {
		return
	}
	type dbKey struct {
		db  int
		key string
	}
	// The store noted "new" as each key came into existence. A command
	// whose spec names its events announces a new key just before that
	// key's event (MSET a 1 d 4: set a, new d, set d), as Redis does; a
	// command noting its own events already has them in order.
	news := map[dbKey]store.Note{}
	if !own {
		for _, n := range tx.Journal().TakeNotes(nFrom) {
			if n.Event == "new" && n.Class == store.NoteNewClass {
				news[dbKey{n.DB, string(n.Key)}] = n
				continue
			}
			tx.Journal().AddNoteIn(n.DB, n.Class, n.Event, n.Key)
		}
	}
	// A key deleted and written again by one command (a *STORE over an
	// existing key) was replaced, not removed: it is not gone, and it is
	// not "new" either (Redis overwrites it in place).
	deleted := map[dbKey]bool{}
	for _, k := range tx.Journal().Deleted()[dFrom:] {
		id := dbKey{k.DB, string(k.Key)}
		if _, ok, err := tx.MetaIn(k.DB, k.Key); err == nil && ok {
			delete(news, id)
			continue
		}
		deleted[id] = true
	}
	if spec.Flags&command.NewFirst != 0 {
		for _, k := range tx.Journal().Touched()[tFrom:] {
			if n, ok := news[dbKey{k.DB, string(k.Key)}]; ok {
				tx.Journal().AddNoteIn(n.DB, n.Class, n.Event, n.Key)
			}
		}
		clear(news)
	}
	for i, k := range tx.Journal().Touched()[tFrom:] {
		gone := deleted[dbKey{k.DB, string(k.Key)}]
		if n, ok := news[dbKey{k.DB, string(k.Key)}]; ok {
			tx.Journal().AddNoteIn(n.DB, n.Class, n.Event, n.Key)
		}
		ev := spec.Event
		if spec.KeyEvent != nil {
			ev = spec.KeyEvent(i, gone)
		}
		if ev == "expire" && gone {
			ev = "" // an expiry in the past deletes: only "del"
		}
		if ev != "" {
			tx.Journal().AddNoteIn(k.DB, uint16(spec.Class), ev, k.Key)
		}
		if spec.EventTTL && !gone {
			if m, ok, err := tx.MetaIn(k.DB, k.Key); err == nil && ok && m.ExpireAt != 0 {
				tx.Journal().AddNoteIn(k.DB, uint16(command.NotifyGeneric), "expire", k.Key)
			}
		}
		if gone && ev != "del" && ev != "expired" && ev != "evicted" && ev != "rename_from" && ev != "move_from" {
			tx.Journal().AddNoteIn(k.DB, uint16(command.NotifyGeneric), "del", k.Key)
		}
	}
}

// Notifying reports whether keyspace events are on. Each shard publishes
// its commands' events as it commits them, so the events of commands
// running on different shards at once leave in no set order.
func (e *Engine) Notifying() bool { return e.rt.notifying() }

// publishNotes sends a committed transaction's notifications and the
// Pub/Sub messages its commands published (scripts).
func (e *Engine) publishNotes(tx *store.Tx) {
	for _, n := range tx.Journal().Notes() {
		e.rt.Server.Broker.Notify(n.DB, command.NotifyClass(n.Class), n.Event, n.Key)
	}
	for _, m := range tx.Journal().Messages() {
		if m.Shard {
			e.rt.Server.Broker.PublishShard(m.NS, m.Channel, m.Msg)
		} else {
			e.rt.Server.Broker.Publish(m.NS, m.Channel, m.Msg)
		}
	}
}
