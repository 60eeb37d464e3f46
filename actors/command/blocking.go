package command

import (
	"errors"
	"math"
	"time"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// ErrWouldBlock is what a Blocker's Run or Serve returns when every key it
// waits on is empty: the engine then parks the client (or, where it may not
// block, as inside MULTI, replies TimedOut).
var ErrWouldBlock = errors.New("command: would block")

// ErrAllShards is what a command returns when it needs a key on a shard it
// does not hold (a script touching a key it did not declare): the engine
// rolls the attempt back and runs the command again holding every shard.
var ErrAllShards = errors.New("command: needs every shard")

// ErrReplyLater is what a connection command returns when it handed its
// work to the engine, which sends the reply (WATCH, EXEC): the connection
// writes nothing for it now.
var ErrReplyLater = errors.New("command: reply comes later")

// ErrNotOnLoop is returned, before anything is written, by a command run
// on an event loop (Ctx.OnLoop) that finds its work too long for it (a
// GET of a big string: a 512 MiB reply held the loop, and every client
// on it, for 2 s); it runs again on its shard's goroutine. A NotOnLoop
// carries it with the size of the reply to come.
var ErrNotOnLoop = errors.New("command: too long for an event loop")

// NotOnLoop is ErrNotOnLoop with the size of the reply the command will
// make on its shard: the client counts that much as coming, as it would
// have counted the reply made in place, so a client pipelining big GETs
// it does not read is paused before they all run.
type NotOnLoop struct{ Reply int64 }

func (e *NotOnLoop) Error() string        { return ErrNotOnLoop.Error() }
func (e *NotOnLoop) Is(target error) bool { return target == ErrNotOnLoop }

// LoopReplyMax bounds the reply a command builds on an event loop: past
// it, ErrNotOnLoop.
const LoopReplyMax = 1 << 20

// Wait is what a blocking command waits on, with the Blocker methods that
// only report it; a Blocker embeds a Wait and writes Run and Serve.
type Wait struct {
	// Keys are the keys the client waits on, in its order (WaitKeys).
	Keys [][]byte
	// Also are the other keys serving touches (ServeKeys: BLMOVE's
	// destination).
	Also [][]byte
	// For is how long to wait (Timeout); 0 waits forever.
	For time.Duration
	// NullBulk: a wait that ends without data replies a null bulk
	// (BLMOVE), not a null array.
	NullBulk bool
	// Reader: serving takes nothing (Consumes is false: stream readers).
	Reader bool
	// NoWait: this call never waits (MayBlock is false: XREAD without
	// BLOCK).
	NoWait bool
}

// WaitKeys implements Blocker.
func (w *Wait) WaitKeys() [][]byte { return w.Keys }

// ServeKeys implements Blocker.
func (w *Wait) ServeKeys() [][]byte { return w.Also }

// Timeout implements Blocker.
func (w *Wait) Timeout() time.Duration { return w.For }

// TimedOut implements Blocker.
func (w *Wait) TimedOut(r *resp.Writer) {
	if w.NullBulk {
		r.Null()
		return
	}
	r.NullArray()
}

// Consumes implements Blocker.
func (w *Wait) Consumes() bool { return !w.Reader }

// MayBlock implements Blocker.
func (w *Wait) MayBlock() bool { return !w.NoWait }

// Blocker is the Runner of a command that may wait for keys (BLPOP, BRPOP,
// BLMOVE, BRPOPLPUSH, BLMPOP). Run is the non-blocking attempt over every
// key, exactly like the command's non-blocking form.
type Blocker interface {
	Runner
	// WaitKeys returns the keys the client waits on, in its order.
	WaitKeys() [][]byte
	// ServeKeys returns the other keys serving touches (BLMOVE's
	// destination), so the engine holds their shards too.
	ServeKeys() [][]byte
	// Timeout is how long to wait; 0 waits forever.
	Timeout() time.Duration
	// Serve runs the command against key alone, which has just gained
	// elements; ErrWouldBlock if it is empty again.
	Serve(c *Ctx, key []byte) error
	// TimedOut writes the reply of a wait that ended without data.
	TimedOut(w *resp.Writer)
	// Consumes reports whether serving takes what it serves (list pops):
	// when such a waiter finds its key empty, the later ones would too.
	// Stream readers consume nothing (XREAD) or only their group's share.
	Consumes() bool
	// MayBlock reports whether this call can wait at all (XREAD without
	// BLOCK never does, so its connection keeps pipelining).
	MayBlock() bool
}

// ServeFirst is a blocking pop's non-blocking attempt: it serves from the
// first of keys that has data, or returns ErrWouldBlock. A key of another
// type fails at once, as in Redis.
func ServeFirst(c *Ctx, b Blocker, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Serve(c, k); !errors.Is(err, ErrWouldBlock) {
			return err
		}
	}
	return ErrWouldBlock
}

// Timeout parses a blocking command's timeout in seconds (a float) like
// Redis 7.0: truncated to milliseconds, where a value too large for a
// 64-bit count of milliseconds wraps negative ("timeout is negative").
func Timeout(arg []byte) (time.Duration, error) {
	f, ok := ParseFloat(arg)
	if !ok || math.IsNaN(f) {
		return 0, rerr.Errorf("ERR timeout is not a float or out of range")
	}
	ms := math.Trunc(f * 1000)
	if ms < 0 || ms >= math.MaxInt64 {
		return 0, rerr.Errorf("ERR timeout is negative")
	}
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	return time.Duration(min(int64(ms), maxMs)) * time.Millisecond, nil
}
