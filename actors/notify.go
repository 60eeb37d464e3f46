package actors

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
)

// Keyspace notifications.
//
// When some class is enabled, transactions collect notes and the engine
// publishes them after the commit. Most commands are described here by
// their event name, applied to every key they wrote (Tx.Touched); a key a
// command deleted as a side effect (a list popped empty) also gets
// Redis's generic "del". List pushes and pops note themselves, since their
// event depends on the side (lpush or rpush).

// eventName returns a command's event for the keys it wrote: "" for none,
// "self" when the command notes its own events.
func eventName(spec *command.Spec) string {
	switch spec.Name {
	case "set", "setex", "psetex", "setnx", "getset", "mset", "msetnx":
		return "set"
	case "incr", "incrby", "decr", "decrby":
		return "incrby"
	case "del", "unlink", "getdel":
		return "del"
	case "expire", "pexpire", "expireat", "pexpireat", "getex":
		return "expire"
	case "rename", "renamenx":
		return "rename"
	case "hmset", "hsetnx":
		return "hset"
	case "zincrby":
		return "zincr"
	case "smove":
		return "smove"
	case "gc-expire":
		return "expired"
	case "lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lmove", "rpoplpush", "lmpop",
		"blpop", "brpop", "blmove", "brpoplpush", "blmpop":
		return "self"
	case "flushdb", "flushall", "gc-flush", "exec", "watch", "copy":
		return ""
	}
	if spec.Class == 0 || spec.Flags&command.Write == 0 {
		return ""
	}
	return spec.Name
}

// noteEvents records the notifications of one command that wrote the keys
// tx.Touched()[tFrom:] and deleted tx.Deleted()[dFrom:].
func noteEvents(tx *store.Tx, spec *command.Spec, tFrom, dFrom int) {
	if !tx.Notifying() {
		return
	}
	name := eventName(spec)
	if name == "" {
		return
	}
	deleted := map[string]bool{}
	for _, k := range tx.Deleted()[dFrom:] {
		deleted[string(rune(k.DB))+string(k.Key)] = true
	}
	class := uint16(spec.Class)
	touched := tx.Touched()[tFrom:]
	if name == "rename" && len(touched) == 2 && deleted[string(rune(touched[1].DB))+string(touched[1].Key)] {
		touched = []store.KeyRef{touched[1], touched[0]} // rename_from first
	}
	for i, k := range touched {
		gone := deleted[string(rune(k.DB))+string(k.Key)]
		ev, cl := name, class
		switch name {
		case "self":
			ev = ""
		case "expired":
			cl = uint16(command.NotifyExpired)
		case "rename":
			ev = "rename_to"
			if gone {
				ev = "rename_from"
			}
		case "smove":
			ev = "sadd"
			if i == 0 {
				ev = "srem"
			}
		case "expire":
			if gone {
				ev = "" // an expiry in the past deletes: only "del"
			}
		}
		if ev != "" {
			tx.AddNoteIn(k.DB, cl, ev, k.Key)
		}
		if ev == "set" && !gone {
			// SET EX / SETEX / PSETEX announce the expiry they set.
			if m, ok, err := tx.MetaIn(k.DB, k.Key); err == nil && ok && m.ExpireAt != 0 && spec.Name != "getset" && spec.Name != "mset" && spec.Name != "msetnx" && spec.Name != "setnx" {
				tx.AddNoteIn(k.DB, uint16(command.NotifyGeneric), "expire", k.Key)
			}
		}
		if gone && ev != "del" && ev != "expired" && ev != "rename_from" {
			tx.AddNoteIn(k.DB, uint16(command.NotifyGeneric), "del", k.Key)
		}
	}
}

// publishNotes sends a committed transaction's notifications.
func (e *Engine) publishNotes(notes []store.Note) {
	for _, n := range notes {
		e.srv.Notify(n.DB, command.NotifyClass(n.Class), n.Event, n.Key)
	}
}
