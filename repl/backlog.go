package repl

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// backlog is a master's replication stream: the bytes of its effects,
// numbered from 0 (the offset of a byte is how many came before it; the
// end is master_repl_offset). It keeps the last size bytes for partial
// resyncs, and every byte a connected replica has not been sent yet, up
// to limit bytes behind the end: a replica further behind is dropped
// (Redis's client-output-buffer-limit for replicas).
type backlog struct {
	mu    sync.Mutex
	cond  *sync.Cond // signalled when bytes are appended or a reader goes
	buf   []byte     // the bytes from base on
	base  int64
	size  *atomic.Int64 // repl-backlog-size, which CONFIG SET changes
	limit int64
	db    int // the database the stream's next command runs in (-1: SELECT it)
	// readers are the offsets the replicas are at (kept while they read).
	readers map[*reader]struct{}
	closed  bool
	// offset is the node's master_repl_offset, kept equal to the end.
	offset *atomic.Int64
}

// reader is one replica's place in the backlog.
type reader struct {
	at   int64
	gone bool // dropped: too far behind
}

// errBehind ends a replica that fell further behind than the limit.
var errBehind = errors.New("the replica fell too far behind the replication stream")

func newBacklog(start int64, size *atomic.Int64, limit int64, offset *atomic.Int64) *backlog {
	b := &backlog{base: start, size: size, limit: limit, db: -1, readers: map[*reader]struct{}{}, offset: offset}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// end returns the offset after the last byte.
func (b *backlog) end() int64 { return b.base + int64(len(b.buf)) }

// appendEffects adds one transaction's effects, each after a SELECT of
// its database when the stream is in another one.
func (b *backlog) appendEffects(fx []store.Effect) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, e := range fx {
		db := e.DB
		if e.IsMulti() && i+1 < len(fx) {
			db = fx[i+1].DB // SELECT before MULTI, not inside
		}
		if named(db) { // a named namespace's (namespace.go)
			if e.IsMulti() {
				b.buf = append(b.buf, e.Cmd...)
			} else {
				b.buf = appendNamespaced(b.buf, db, e.Cmd)
			}
			continue
		}
		if db >= 0 {
			b.selectLocked(db)
		}
		b.buf = append(b.buf, e.Cmd...)
	}
	b.grew()
}

// appendRaw adds a command that runs in no database (PING, REPLCONF
// GETACK, PUBLISH).
func (b *backlog) appendRaw(cmd []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, cmd...)
	b.grew()
}

// selectLocked adds SELECT db unless the stream has db selected; mu is
// held.
func (b *backlog) selectLocked(db int) {
	if db != b.db {
		b.buf = resp.AppendCommand(b.buf, []byte("SELECT"), command.Itoa(int64(db)))
		b.db = db
	}
}

// appendPublish adds a PUBLISH or SPUBLISH: it runs in no database, but
// Redis streams it as any command, after a SELECT when the stream has
// none yet (a replica just synced); SELECT 0 then, as rekv's
// publishers' database is not known here.
func (b *backlog) appendPublish(cmd []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.db < 0 {
		b.selectLocked(0)
	}
	b.buf = append(b.buf, cmd...)
	b.grew()
}

// grew publishes the new end as the node's offset, wakes the readers and
// trims what nobody needs; mu is held.
func (b *backlog) grew() {
	end := b.end()
	b.offset.Store(end)
	size := b.size.Load()
	keep := end - size // the oldest byte to keep for partial resyncs
	for r := range b.readers {
		switch {
		case r.at < end-max(b.limit, size):
			r.gone = true
			delete(b.readers, r)
		case r.at < keep:
			keep = r.at
		}
	}
	if drop := keep - b.base; drop > 1<<20 && drop > int64(len(b.buf))/2 {
		n := copy(b.buf, b.buf[drop:])
		b.buf = b.buf[:n]
		b.base = keep
	}
	b.cond.Broadcast()
}

// join registers a reader at offset at, which the backlog holds; mu is
// held or the backlog is not shared yet.
func (b *backlog) join(at int64) *reader {
	r := &reader{at: at}
	b.readers[r] = struct{}{}
	return r
}

// joinAt registers a reader at offset at if the backlog holds it.
func (b *backlog) joinAt(at int64) (*reader, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if at < b.base || at > b.end() {
		return nil, false
	}
	return b.join(at), true
}

// joinEnd registers a reader at the end, where a full sync's snapshot
// is: the stream's next command SELECTs its database.
func (b *backlog) joinEnd() (*reader, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.db = -1
	end := b.end()
	return b.join(end), end
}

// leave unregisters a reader.
func (b *backlog) leave(r *reader) {
	b.mu.Lock()
	delete(b.readers, r)
	b.mu.Unlock()
}

// next copies into dst the bytes from r's offset on (at most max), waiting
// for some, and moves r past them; errBehind when r was dropped, nil
// bytes when the backlog is closed or stop says so.
func (b *backlog) next(r *reader, dst []byte, max int, stop func() bool) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !r.gone && !b.closed && r.at >= b.end() && !stop() {
		b.cond.Wait()
	}
	switch {
	case r.gone:
		return nil, errBehind
	case b.closed || stop():
		return nil, nil
	}
	from := r.at - b.base
	n := min(int64(max), int64(len(b.buf))-from)
	dst = append(dst[:0], b.buf[from:from+n]...)
	r.at += n
	return dst, nil
}

// wake makes every waiting reader look again (one of them is stopping).
func (b *backlog) wake() {
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// stats returns the first offset held and how many bytes are held.
func (b *backlog) stats() (first, histlen int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.base, int64(len(b.buf))
}

// close ends every reader.
func (b *backlog) close() {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
}
