package actors

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// MULTI/EXEC and WATCH.
//
// A WATCH runs on the shards of its keys, so it registers after every
// earlier write to them. Every committed write then marks the WatchStates
// watching the keys it touched (Tx.Touched; FLUSHDB/FLUSHALL mark their
// whole database) as broken. EXEC runs as one request holding the shards
// of every queued key and every watched key, in one driver transaction: it
// fails (nil reply) if its WatchState broke, or if a key that was live at
// WATCH time has expired since, as in Redis 7; otherwise it runs the queued
// commands one after another and no other command can observe a partial
// state (the barrier and the single transaction). On a store shared with
// other nodes, whose writes never reach this registry, WATCH also records
// each key's write stamp and the db's flush marker, and EXEC compares them
// in its own transaction (see store/stamp.go).

// WatchState is one client's current WATCH: created by its connection at
// the first WATCH, ended by EXEC, DISCARD, UNWATCH or disconnection.
type WatchState struct {
	broken atomic.Bool
	mu     sync.Mutex
	ended  bool
	keys   []waitKey
	expire map[waitKey]int64 // expiry (unix ms) of keys live when watched
	// live are the keys that existed when watched: a FLUSHDB or FLUSHALL
	// breaks only those, as in Redis (touchAllWatchedKeysInDb), since a
	// key created later broke the watch when it was created.
	live map[waitKey]bool
	// On a shared store: each key's write stamp (nil: none) and each
	// db's record (slot and flush marker) at WATCH time. Kept after drop, for EXEC retries.
	stamps map[waitKey][]byte
	floors map[int]store.DBRecord
}

// changed reports whether a watched key's stamp or a watched db's flush
// marker differs in tx (shared stores). After a SWAPDB (the db's slot
// differs) the stamps alone decide: they are read from the db's new slot,
// so a key that exists in either database breaks the watch, as in Redis.
func (ws *WatchState) changed(tx *store.Tx) (bool, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for k, was := range ws.stamps {
		now, err := tx.Stamp(k.db, []byte(k.key))
		if err != nil {
			return false, err
		}
		if !bytes.Equal(now, was) {
			return true, nil
		}
	}
	for db, was := range ws.floors {
		now, err := tx.Records().Record(db)
		if err != nil {
			return false, err
		}
		if now.Slot == was.Slot && now.Marker != was.Marker && ws.liveIn(db) {
			return true, nil
		}
	}
	return false, nil
}

// liveIn reports whether a key watched in db existed when watched. The
// caller holds ws.mu or the watches' lock.
func (ws *WatchState) liveIn(db int) bool {
	for k := range ws.live {
		if k.db == db {
			return true
		}
	}
	return false
}

// Keys returns how many keys are registered.
func (ws *WatchState) Keys() int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return len(ws.keys)
}

type watches struct {
	mu    sync.Mutex
	byKey map[waitKey]map[*WatchState]struct{}
	n     atomic.Int64
}

func newWatches() *watches {
	return &watches{byKey: map[waitKey]map[*WatchState]struct{}{}}
}

// touch breaks the watches of keys and of flushed databases. Of reaped,
// keys among keys that were only removed because they had expired, it
// breaks only the watches that found them live: for one that found the
// key already expired nothing changed, as in Redis 7.
func (w *watches) touch(keys []store.KeyRef, flushed []int, reaped []store.KeyRef) {
	if w.n.Load() == 0 || (len(keys) == 0 && len(flushed) == 0) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var onlyReaped map[waitKey]bool
	for _, k := range reaped {
		if onlyReaped == nil {
			onlyReaped = make(map[waitKey]bool, len(reaped))
		}
		onlyReaped[waitKey{k.DB, string(k.Key)}] = true
	}
	for _, k := range keys {
		wk := waitKey{k.DB, string(k.Key)}
		for ws := range w.byKey[wk] {
			if !onlyReaped[wk] || ws.live[wk] {
				ws.broken.Store(true)
			}
		}
	}
	for _, db := range flushed {
		for k, set := range w.byKey {
			if k.db == db {
				for ws := range set {
					if ws.live[k] {
						ws.broken.Store(true)
					}
				}
			}
		}
	}
}

// keysIn returns the watched keys of databases a and b.
func (w *watches) keysIn(a, b int) []store.KeyRef {
	if w.n.Load() == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var keys []store.KeyRef
	for k := range w.byKey {
		if k.db == a || k.db == b {
			keys = append(keys, store.KeyRef{DB: k.db, Key: []byte(k.key)})
		}
	}
	return keys
}

// drop ends ws and unregisters its keys.
func (w *watches) drop(ws *WatchState) {
	if ws == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.ended = true
	for _, k := range ws.keys {
		if set := w.byKey[k]; set != nil {
			delete(set, ws)
			if len(set) == 0 {
				delete(w.byKey, k)
			}
		}
	}
	w.n.Add(-int64(len(ws.keys)))
	ws.keys = nil
}

// Unwatch ends a client's WATCH (UNWATCH, or the client went away).
func (e *Engine) Unwatch(ws *WatchState) { e.watches.drop(ws) }

// WatchRunner returns the Runner of WATCH keys... for ws; it must be
// dispatched on the keys' shards.
func (e *Engine) WatchRunner(ws *WatchState, keys [][]byte) command.Runner {
	return &watchRunner{w: e.watches, ws: ws, keys: keys}
}

type watchRunner struct {
	w    *watches
	ws   *WatchState
	keys [][]byte
}

func (r *watchRunner) Run(c *command.Ctx) error {
	type state struct {
		k        waitKey
		expireAt int64
		stamp    []byte
		live     bool
	}
	st := make([]state, 0, len(r.keys))
	shared := c.Tx.Shared()
	var floor store.DBRecord
	for _, key := range r.keys {
		m, ok, err := c.Tx.Meta(key)
		if err != nil {
			return err
		}
		s := state{k: waitKey{c.DB, string(key)}, live: ok}
		if ok {
			s.expireAt = m.ExpireAt
		}
		if shared {
			if s.stamp, err = c.Tx.Stamp(c.DB, key); err != nil {
				return err
			}
		}
		st = append(st, s)
	}
	if shared {
		var err error
		if floor, err = c.Tx.Records().Record(c.DB); err != nil {
			return err
		}
	}
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	r.ws.mu.Lock()
	defer r.ws.mu.Unlock()
	if !r.ws.ended {
		for _, s := range st {
			set := r.w.byKey[s.k]
			if set == nil {
				set = map[*WatchState]struct{}{}
				r.w.byKey[s.k] = set
			}
			if _, dup := set[r.ws]; dup {
				continue
			}
			set[r.ws] = struct{}{}
			r.ws.keys = append(r.ws.keys, s.k)
			if s.live {
				if r.ws.live == nil {
					r.ws.live = map[waitKey]bool{}
				}
				r.ws.live[s.k] = true
			}
			r.w.n.Add(1)
			if shared {
				if r.ws.stamps == nil {
					r.ws.stamps, r.ws.floors = map[waitKey][]byte{}, map[int]store.DBRecord{}
				}
				r.ws.stamps[s.k] = s.stamp
				if _, ok := r.ws.floors[c.DB]; !ok {
					r.ws.floors[c.DB] = floor
				}
			}
			if s.expireAt != 0 {
				if r.ws.expire == nil {
					r.ws.expire = map[waitKey]int64{}
				}
				r.ws.expire[s.k] = s.expireAt
			}
		}
	}
	c.W.OK()
	return nil
}

// Queued is one command queued by MULTI. Err, when set, is its parse
// error, replied in EXEC's array like a runtime error (as in Redis).
type Queued struct {
	Spec   *command.Spec
	Runner command.Runner
	Err    error
	Args   [][]byte // for MONITOR
	Track  bool     // the client tracks the keys it reads (Options.Track)
	// NoTouch: CLIENT NO-TOUCH ON.
	NoTouch bool
}

// ExecRunner returns the Runner of EXEC for the queued commands, checking
// ws (nil: no WATCH) first. client is the connection, for the queued
// connection commands (SELECT...).
func (e *Engine) ExecRunner(ws *WatchState, cmds []Queued, client command.Client) command.Runner {
	return &execRunner{e: e, ws: ws, cmds: cmds, client: client}
}

type execRunner struct {
	e      *Engine
	ws     *WatchState
	cmds   []Queued
	client command.Client
	// later are the tracked reads of keys an earlier queued command
	// wrote, tracked once the EXEC's invalidations went out (trackLater):
	// Redis invalidates a write before the next command reads, so the
	// read stays tracked and the client is not told of the write.
	later []laterRead
}

// laterRead is a tracked read inside EXEC whose tracking waits.
type laterRead struct {
	r  Replier
	q  *Queued
	db int
}

// trackLater tracks the reads that waited, once the EXEC committed and
// its invalidations went out (Engine.run).
func (x *execRunner) trackLater() {
	for _, l := range x.later {
		x.e.trackKeys(l.r, l.q.Spec, l.q.Args)
	}
	x.later = x.later[:0]
}

// writeSeen handles a queued write that ran after reads that wait: those
// of its keys (every one when it names none, as FLUSHALL or a script's
// undeclared keys) are tracked now, so its invalidation reaches them, as
// in Redis, where the read came first.
func (x *execRunner) writeSeen(q *Queued, db int) {
	if len(x.later) == 0 || q.Spec.Flags&command.Write == 0 {
		return
	}
	var idx [8]int
	is := q.Spec.KeyIndexes(q.Args, idx[:0])
	keep := x.later[:0]
	for _, l := range x.later {
		hit := len(is) == 0 || q.Spec.Script()
		for _, at := range is {
			hit = hit || l.db == db && slices.ContainsFunc(l.q.Spec.KeyIndexes(l.q.Args, nil), func(i int) bool {
				return string(l.q.Args[i]) == string(q.Args[at])
			})
		}
		if hit {
			x.e.trackKeys(l.r, l.q.Spec, l.q.Args)
		} else {
			keep = append(keep, l)
		}
	}
	x.later = keep
}

func (x *execRunner) Run(c *command.Ctx) error {
	if x.ws != nil {
		broken := x.ws.broken.Load()
		x.ws.mu.Lock()
		for _, at := range x.ws.expire {
			if at <= c.Now {
				broken = true
			}
		}
		x.ws.mu.Unlock()
		x.e.watches.drop(x.ws)
		if !broken && c.Tx.Shared() {
			changed, err := x.ws.changed(c.Tx)
			if err != nil {
				return err
			}
			broken = changed
		}
		if broken {
			c.W.NullArray()
			return nil
		}
	}
	proto := c.W.Proto()
	c.W.Array(len(x.cmds))
	sub := resp.NewWriter(proto)
	x.later = x.later[:0] // an attempt before this one's
	for i := range x.cmds {
		q := &x.cmds[i]
		sub.Reset(proto)
		err := q.Err
		var trackRead func()
		db := c.Tx.DB() // before the command: a SELECT changes it
		if q.Track && err == nil {
			if r, ok := x.client.Conn.(Replier); ok {
				if !q.Spec.Script() && wroteKeyIn(c.Tx, db, q.Spec, q.Args) {
					x.later = append(x.later, laterRead{r: r, q: q, db: db})
				} else {
					trackRead = x.e.startTracking(r, q.Spec, q.Args)
				}
			}
		}
		t0 := time.Now()
		failed := false
		if err == nil {
			// A transaction never blocks: NoBlock.
			err = x.e.rt.Step(c.Tx, sub, Call{Spec: q.Spec, Args: q.Args, Runner: q.Runner, Client: x.client, NoBlock: true,
				Purge: c.PurgeCaches, Holds: c.Holds, NoTouch: q.NoTouch, Stats: c.Stats, TrackRead: trackRead, Failed: &failed})
			if q.Spec.Flags&command.Conn != 0 && x.client.Conn != nil {
				c.Tx.Use(x.client.Conn.DB()) // SELECT
			}
			x.writeSeen(q, db)
		}
		if errors.Is(err, command.ErrReplyLater) {
			// A connection command that answers later cannot inside EXEC
			// (its reply belongs in the array now): a defect of that
			// command, answered as an internal error in its place.
			x.e.log.Error("a command queued in MULTI tried to answer later", "cmd", q.Spec.FullName())
			err = rerr.ErrInternal
		}
		if err != nil {
			var re *rerr.Error
			if !errors.As(err, &re) {
				// Storage failure or conflict: the whole EXEC retries or
				// fails. A panic too: what the command half did is rolled
				// back with the rest, so EXEC stays all or nothing.
				return err
			}
			sub.Reset(proto)
			command.Reply(sub, err, q.Spec.FullName(), x.e.log)
		}
		addStat(c.Stats, q.Spec, t0, err)
		if c.Stats != nil {
			(*c.Stats)[len(*c.Stats)-1].Args = q.Args // slow-logged one by one
			(*c.Stats)[len(*c.Stats)-1].Failed = (*c.Stats)[len(*c.Stats)-1].Failed || failed
		}
		if b := sub.Bytes(); c.Stats != nil && len(b) > 0 && b[0] == '-' {
			// Its error is one the client gets (in EXEC's array):
			// counted in INFO errorstats, as Redis counts it.
			(*c.Stats)[len(*c.Stats)-1].Failed = true
			(*c.Stats)[len(*c.Stats)-1].Error = bytes.Clone(b)
		}
		c.W.Raw(sub.Bytes())
	}
	return nil
}
