package actors

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// Blocked clients (BLPOP and friends).
//
// A blocking command first runs like its non-blocking form while holding
// the shards of its keys. If every key is empty, it registers a waiter
// before it releases those shards, so no push to one of its keys can slip
// between the attempt and the registration: a push runs on its key's
// shard, after the registration, and sees the waiter.
//
// After a command commits, the keys it pushed to (Tx.Ready) are served:
// their waiters, oldest first, each take from the key until it is empty.
// A waiter whose serving needs only shards the pushing command holds is
// served right there, before the shard runs anything else — so a
// non-blocking pop queued behind the push cannot take the element first,
// as in Redis. Otherwise (BLMOVE into a key of another shard) it is
// re-dispatched over its shards and re-registered with its old place in
// line if the key was emptied meanwhile.
//
// A waiter ends exactly once, by whoever claims it first: a serve, its
// timer, or its client closing.

// errLost is a serve attempt whose waiter ended meanwhile.
var errLost = errors.New("actors: waiter already ended")

type waitKey struct {
	db  int
	key string
}

type waiter struct {
	req      *Request
	b        command.Blocker
	order    uint64      // place in line, kept on re-registration
	deadline time.Time   // zero: forever
	timer    *time.Timer // under blocked.mu
	linked   bool        // registered; under blocked.mu
	done     atomic.Bool
}

func (w *waiter) claim() bool { return w.done.CompareAndSwap(false, true) }

type blocked struct {
	mu       sync.Mutex
	next     uint64
	byKey    map[waitKey][]*waiter // each in order
	byClient map[Replier]*waiter
	n        atomic.Int64
}

func newBlocked() *blocked {
	return &blocked{byKey: map[waitKey][]*waiter{}, byClient: map[Replier]*waiter{}}
}

// keysIn returns the keys of databases a and b with blocked clients.
func (b *blocked) keysIn(x, y int) []store.KeyRef {
	if b.n.Load() == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var keys []store.KeyRef
	for k, ws := range b.byKey {
		if (k.db == x || k.db == y) && len(ws) > 0 {
			keys = append(keys, store.KeyRef{DB: k.db, Key: []byte(k.key)})
		}
	}
	return keys
}

// add registers w (a fresh waiter gets the next place in line) and arms
// its timer, which calls expire.
func (b *blocked) add(w *waiter, expire func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	w.linked = true
	if !w.deadline.IsZero() {
		w.timer = time.AfterFunc(time.Until(w.deadline), expire)
	}
	if w.order == 0 {
		b.next++
		w.order = b.next
	}
	for _, k := range w.b.WaitKeys() {
		wk := waitKey{w.req.DB, string(k)}
		q := b.byKey[wk]
		i, _ := slices.BinarySearchFunc(q, w.order, func(x *waiter, o uint64) int {
			return cmpU64(x.order, o)
		})
		if i < len(q) && q[i] == w {
			continue // the same key twice
		}
		b.byKey[wk] = slices.Insert(q, i, w)
	}
	b.byClient[w.req.Client] = w
	b.n.Add(1)
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// remove unlinks w from every key.
func (b *blocked) remove(w *waiter) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !w.linked {
		return
	}
	w.linked = false
	if b.byClient[w.req.Client] == w {
		delete(b.byClient, w.req.Client)
	}
	b.n.Add(-1)
	for _, k := range w.b.WaitKeys() {
		wk := waitKey{w.req.DB, string(k)}
		q := slices.DeleteFunc(b.byKey[wk], func(x *waiter) bool { return x == w })
		if len(q) == 0 {
			delete(b.byKey, wk)
		} else {
			b.byKey[wk] = q
		}
	}
	if w.timer != nil {
		w.timer.Stop()
	}
}

// first returns the oldest waiter on key that has not ended, dropping
// ended ones.
// waiting returns the waiters on key, oldest first (a copy).
func (b *blocked) waiting(db int, key []byte) []*waiter {
	if b.n.Load() == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*waiter(nil), b.byKey[waitKey{db, string(key)}]...)
}

func (b *blocked) first(db int, key []byte) *waiter {
	if b.n.Load() == 0 {
		return nil
	}
	b.mu.Lock()
	q := b.byKey[waitKey{db, string(key)}]
	var w *waiter
	if len(q) > 0 {
		w = q[0]
	}
	b.mu.Unlock()
	if w != nil && w.done.Load() {
		b.remove(w)
		return b.first(db, key)
	}
	return w
}

// client returns the waiter of a client, if any.
func (b *blocked) client(c Replier) *waiter {
	if b.n.Load() == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.byClient[c]
}

// IsBlocked reports whether c waits in a blocking command (CLIENT LIST's
// flag b).
func (e *Engine) IsBlocked(c Replier) bool { return e.blocked.client(c) != nil }

// Blocked returns the number of clients waiting in blocking commands.
func (e *Engine) Blocked() int { return int(e.blocked.n.Load()) }

// Cancel ends the wait of a client that went away.
func (e *Engine) Cancel(c Replier) {
	if w := e.blocked.client(c); w != nil && w.claim() {
		e.blocked.remove(w)
	}
}

// Unblock ends c's blocking command, if it has one, as CLIENT UNBLOCK
// does: with its time-out reply, or with asError the UNBLOCKED error.
func (e *Engine) Unblock(c Replier, asError bool) bool {
	w := e.blocked.client(c)
	if w == nil || !w.claim() {
		return false
	}
	e.blocked.remove(w)
	e.countUnblocked(w.req, asError)
	if asError {
		out := resp.NewWriter(w.req.Proto)
		out.Error("UNBLOCKED client unblocked via CLIENT UNBLOCK")
		w.req.Client.Reply(w.req.Seq, out.Bytes())
	} else {
		w.req.Client.Reply(w.req.Seq, e.timedOut(w))
	}
	return true
}

// timedOut returns the time-out reply of w's command, or an internal
// error if making it panicked (reported once, with the stack).
func (e *Engine) timedOut(w *waiter) (reply []byte) {
	defer func() {
		if p := recover(); p != nil {
			guard.Guard{Log: e.log, Count: e.rt.Panics}.Report(p, "command panicked", "cmd", w.req.Spec.FullName())
			reply = []byte("-" + rerr.ErrInternal.Msg + "\r\n")
		}
	}()
	out := resp.NewWriter(w.req.Proto)
	w.b.TimedOut(out)
	return out.Bytes()
}

// countUnblocked counts a blocking command that timed out or was
// unblocked (CLIENT UNBLOCK) in INFO commandstats, as Redis does; Redis
// does not slow-log it.
func (e *Engine) countUnblocked(req *Request, failed bool) {
	if e.rt.Server.Status != nil {
		e.rt.Server.Status.CommandDone(req.Spec, 0, failed)
	}
}

// park registers req's waiter, arming its timer. It runs while req still
// holds its shards.
func (e *Engine) park(req *Request, b command.Blocker) {
	w := req.wait
	if w == nil {
		w = &waiter{req: req, b: b}
		if d := b.Timeout(); d > 0 {
			w.deadline = time.Now().Add(d)
		}
	} else {
		w.done.Store(false)
	}
	e.blocked.add(w, func() {
		if w.claim() {
			e.blocked.remove(w)
			e.countUnblocked(w.req, false)
			w.req.Client.Reply(w.req.Seq, e.timedOut(w))
		}
	})
}

// serveRunner serves one waiter from one key, claiming it before commit.
type serveRunner struct {
	w       *waiter
	key     []byte
	claimed bool
}

func (s *serveRunner) Run(c *command.Ctx) error {
	if err := s.w.b.Serve(c, s.key); err != nil {
		if errors.Is(err, rerr.ErrWrongType) {
			// The key became another type before its waiters were served
			// (MULTI: LPUSH k, DEL k, SET k x): as in Redis, a waiter is
			// served only from a key of its type, so it keeps waiting.
			return command.ErrWouldBlock
		}
		return err
	}
	if !s.claimed {
		if !s.w.claim() {
			return errLost
		}
		s.claimed = true
	}
	return nil
}

// serve hands the elements pushed to ready keys to their waiters. held are
// the shards the caller holds, with their caches.
func (e *Engine) serve(ready []store.KeyRef, held []int, caches store.CacheResolver) {
	queue := append([]store.KeyRef(nil), ready...)
	for len(queue) > 0 {
		db, key := queue[0].DB, queue[0].Key
		queue = queue[1:]
		for _, w := range e.blocked.waiting(db, key) {
			if w.done.Load() {
				e.blocked.remove(w)
				continue
			}
			if !e.holds(held, key, w.b.ServeKeys()) {
				if w.claim() {
					e.blocked.remove(w)
					e.redispatch(w)
				}
				continue
			}
			sr := &serveRunner{w: w, key: key}
			req := &Request{Seq: w.req.Seq, Client: w.req.Client, Spec: w.req.Spec, DB: db, Proto: w.req.Proto,
				Runner: sr}
			t0 := time.Now()
			out, fx, err := e.run(req, caches, nil, nil)
			if errors.Is(err, command.ErrWouldBlock) && sr.claimed {
				// An attempt claimed the waiter, lost its commit to another
				// node's pop (a shared store), and the retry found the key
				// empty: the waiter is still owed an answer. Its command
				// runs again, and parks again in its place (or times out,
				// if its time passed meanwhile).
				e.blocked.remove(w)
				e.redispatch(w)
				continue
			}
			if errors.Is(err, command.ErrWouldBlock) {
				if w.b.Consumes() {
					break // the key is empty again: later waiters would find nothing
				}
				continue // this waiter wants something else (another group's entries)
			}
			if errors.Is(err, errLost) || err != nil && !sr.claimed && !w.claim() {
				// Lost: it timed out or was cancelled meanwhile. An error
				// (the destination's type, for BLMOVE) is the waiter's
				// answer, once claimed.
				e.blocked.remove(w)
				continue
			}
			e.blocked.remove(w)
			e.timed(w.req, t0, err != nil || errorReply(out)) // counted and slow-logged once served, as Redis
			w.req.Client.Reply(w.req.Seq, out)
			e.watches.touch(fx.touched, fx.flushed, fx.reaped)
			queue = append(queue, fx.ready...)
		}
	}
}

// holds reports whether the shards of key and extra are all in held.
func (e *Engine) holds(held []int, key []byte, extra [][]byte) bool {
	if !slices.Contains(held, e.ShardOf(key)) {
		return false
	}
	for _, k := range extra {
		if !slices.Contains(held, e.ShardOf(k)) {
			return false
		}
	}
	return true
}

// redispatch runs a claimed waiter's whole command again over its shards;
// it parks again, in its old place, if its keys are empty by then.
func (e *Engine) redispatch(w *waiter) {
	keys := append(append([][]byte{}, w.b.WaitKeys()...), w.b.ServeKeys()...)
	shards := make([]int, 0, len(keys))
	for _, k := range keys {
		shards = append(shards, e.ShardOf(k))
	}
	slices.Sort(shards)
	req := *w.req
	req.Shards = slices.Compact(shards)
	req.wait = w
	e.Dispatch(&req)
}
