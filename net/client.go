package net

import (
	stdnet "net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/resp"
)

// client is one connection's state. Fields under mu may be read by other
// goroutines (CLIENT LIST); the reorder buffer is under outMu.
type client struct {
	// info is cl.Info, made once: a method value made per request is an
	// allocation each time (actors.Request.ClientInfo).
	info    func() string
	srv     *Server
	conn    gnet.Conn
	id      int64
	fd      int
	addr    string
	laddr   string
	created time.Time

	mu sync.Mutex
	// db and proto are written under mu but read without it (each
	// command reads both on the event loop).
	db       atomic.Int32
	proto    atomic.Int32
	name     string
	libName  string
	libVer   string
	lastCmd  string
	lastSeen time.Time
	nsubs    atomic.Int32        // len(subs)+len(psubs)+len(ssubs), read without mu
	subs     map[string]struct{} // SUBSCRIBEd channels
	psubs    map[string]struct{} // PSUBSCRIBEd patterns
	ssubs    map[string]struct{} // SSUBSCRIBEd shard channels
	trk      trackState          // CLIENT TRACKING

	// Event-loop only.
	// seenAt and lastSpec are what dispatch last wrote to lastSeen and
	// lastCmd: a pipeline of one command takes mu once, not per command.
	seenAt   time.Time
	lastSpec *command.Spec
	nextSeq  uint64
	readAt   time.Time       // when OnTraffic found the commands it runs; lastSeen takes it
	need     int             // bytes the incomplete command at the head needs, if known
	asm      *resp.Assembler // reads the command at the head (a big one) as it arrives
	args     resp.ArgArena   // what dispatch gets: the arguments out of gnet's buffer
	reqs     requests        // dispatch's Requests
	scratch  [][]byte
	quitting bool
	// tail holds reply bytes not yet handed to gnet: a big reply goes
	// out one window at a time (see endBatch). drainClose closes the
	// connection once tail is out.
	tail      [][]byte
	tailBytes int
	// spare, iov and joined are the event loop's scratch for endBatch: an
	// emptied out slice to swap in, and writeAll's buffers (gnet copies
	// what a writev leaves, so nothing handed to it is kept).
	spare      [][]byte
	iov        [][]byte
	joined     []byte
	drainClose bool
	// handoff, when set, takes the socket once the replies before
	// handoffSeq are written (sync.go); replConf is what REPLCONF said.
	handoff    func(stdnet.Conn)
	handoffSeq uint64
	handoffIn  chan []byte
	// handed is the socket's duplicate once handed off (CLIENT KILL
	// closes it too); replica marks a replica's link (SYNC, PSYNC): its
	// CLIENT LIST flag S and CLIENT KILL TYPE replica.
	handed  stdnet.Conn
	replica atomic.Bool
	// inbound, once the socket is handed off (handoffIn), gets what the
	// peer sends (the event loop still reads the socket); it is closed
	// with the connection. Only the event loop touches it.
	inbound  chan []byte
	replConf map[string]string
	tailWake atomic.Bool // a wake-up to write more of tail is scheduled
	replyOff bool        // CLIENT REPLY OFF (event loop)
	skipNext bool        // CLIENT REPLY SKIP: the next command's reply is dropped
	bigOut   bool        // a huge reply went out: release memory once tail is empty
	// inBuf and outBuf are the bytes last seen waiting in the connection's
	// input and output buffers, set on the event loop for INFO (gnet's
	// buffers may only be read there).
	inBuf, outBuf atomic.Int64
	// reading is, while the event loop runs the commands of one read, the
	// bytes of that read not yet processed, the current command's
	// included (0 otherwise): CLIENT LIST's qbuf then, as Redis's query
	// buffer holds the command it runs.
	reading  atomic.Int64
	authed   atomic.Bool            // set by AUTH, possibly inside EXEC on an actor
	tracking atomic.Bool            // trk.on, read without the lock
	user     atomic.Pointer[string] // ACL user (nil: "default")
	noTouch  atomic.Bool            // CLIENT NO-TOUCH ON

	// pass is the pass of the client's event loop (pass.go); inPass: the
	// client has commands in it, and every command of the client not yet
	// answered ran in it.
	pass   *loopPass
	inPass bool
	// bundle holds the client's consecutive multi-shard commands read in
	// this OnTraffic, to go to the shards together (actors.DispatchBundle)
	// before anything else of the client's runs.
	bundle []*actors.Request
	// toShards: the rest of this OnTraffic pass goes to the shards (it
	// made maxPassOutput bytes of replies already).
	toShards bool

	// The connection command being run (event loop only), for WATCH and
	// EXEC, which dispatch it to the engine.
	cur     *command.Spec
	curArgs [][]byte
	curSeq  uint64

	// MULTI state, event-loop only.
	multi      bool
	multiErr   bool // a command failed to queue: EXEC aborts
	queue      []actors.Queued
	pauseHeld  bool // its next command waits for a CLIENT PAUSE (event loop's)
	queueShard map[int]bool
	watch      *actors.WatchState
	watchShard map[int]bool
	// waitSeq is seq+1 of a blocking command still without its reply: the
	// loop parses nothing after it until then. 0: none.
	waitSeq atomic.Uint64
	// evLast is seq+1 of the client's last write parsed while keyspace
	// events were on, and evShards its shards (see orderEvents); the
	// event loop's alone.
	evLast   uint64
	evShards []int
	// evHeld is a command with a big argument, assembled, that waits for
	// the write before it to reply (orderEvents); the event loop's alone.
	evHeld [][]byte

	outMu      sync.Mutex
	written    uint64              // sequence number of pending[phead]
	done       atomic.Uint64       // written, read without outMu (answered)
	pending    [][]byte            // replies by seq-written+phead; nil = not ready
	phead      int                 // pending[:phead] are written (compacted lazily)
	paused     bool                // OnTraffic stopped parsing: too many in flight
	out        [][]byte            // in order, ready for the socket
	outBytes   int                 // bytes in out
	held       map[uint64][][]byte // pushes to write right after reply seq
	inBatch    bool                // OnTraffic is running: it writes at its end
	wakeQueued bool                // a loop wake-up will write out
	holdSince  time.Time           // out waits for the rest of its batch since (holdLocked)
	holdTimer  *time.Timer         // wakes the loop once a hold reaches holdFor
	closeSeq   uint64              // close after writing the reply before this seq; 0 = no
	closing    bool                // out ends with the last reply before closing
	bigSeqs    map[uint64]bool     // commands with huge arguments: release memory after their reply
	silent     map[uint64]bool     // replies dropped (CLIENT REPLY OFF/SKIP)
	after      afterEarlier        // functions waiting for earlier replies (AfterEarlier)
	closed     bool
	dropped    int           // bytes of replies dropped since closed (and the last release)
	assigned   atomic.Uint64 // sequence numbers handed out so far
	// argBytes holds the argument bytes of commands in flight with big
	// arguments (memory.go), by seq; inflight is their sum.
	argBytes map[uint64]int64
	inflight atomic.Int64
	// asmBuf is the bytes of the command being assembled (event loop).
	asmBuf atomic.Int64
	// noEvict is CLIENT NO-EVICT: maxmemory-clients never disconnects it.
	noEvict atomic.Bool
	evicted atomic.Bool // disconnected by maxmemory-clients
	// forgotten: no longer listed (Server.forget).
	forgotten atomic.Bool
	// outPaused: parsing stopped because replies wait unread; endBatch
	// resumes it (event loop only). replyEst is the size of the client's
	// recent big replies (under outMu).
	outPaused bool
	replyEst  int
}

// Output: replies (from any goroutine) wait in pending until all earlier
// ones are ready, then move to out. Only the event loop writes to the
// socket: at the end of OnTraffic, or on a wake-up requested when a reply
// arrives between reads. Everything ready by then goes out in one writev,
// so a pipeline's replies cost one syscall per wake-up, not one each.

// Reply implements actors.Replier: it is called from any goroutine. A
// reply to a sequence number that has one already, or that was never
// handed out, is a defect of its caller: it is dropped and logged, never
// written (a reply out of place would answer another command).
func (cl *client) Reply(seq uint64, b []byte) {
	wake, release, stray := cl.deliver(seq, b)
	cl.runAfterEarlier()
	if release {
		cl.srv.release.soon()
	}
	if stray {
		cl.srv.log.Error("a second reply to a command was dropped", "id", cl.id, "seq", seq, "reply", truncate(b, 64))
	}
	if wake {
		_ = cl.conn.Wake(nil)
	}
}

// deliver files the reply of seq under outMu (released whatever happens):
// whether the event loop must wake up, memory be released, and whether
// the reply was stray.
func (cl *client) deliver(seq uint64, b []byte) (wake, release, stray bool) {
	cl.outMu.Lock()
	defer cl.outMu.Unlock()
	if cl.closed {
		// Dropped: replies to a client that went away mid-pipeline
		// (one that never read them) are garbage at once.
		cl.dropped += len(b)
		release = cl.dropped >= bigTransient
		if release {
			cl.dropped = 0
		}
		return false, release, false
	}
	if seq < cl.written || seq >= cl.assigned.Load() {
		return false, false, true
	}
	i := int(seq - cl.written)
	i += cl.phead
	for len(cl.pending) <= i {
		cl.pending = append(cl.pending, nil)
	}
	if cl.pending[i] != nil {
		return false, false, true
	}
	if len(b) > 0 && b[0] == '-' {
		cl.srv.stats.cmds.CountError(b)
	}
	if b == nil || cl.silent[seq] {
		// CLIENT REPLY OFF / SKIP drop replies, not RESP3 pushes: a
		// SUBSCRIBE's confirmations still arrive, as in Redis.
		if len(b) == 0 || b[0] != '>' {
			b = []byte{}
		}
		delete(cl.silent, seq)
	}
	cl.pending[i] = b
	cl.replyEst = max(len(b), cl.replyEst-cl.replyEst/8) // big replies are remembered for a while
	cl.answeredLocked(seq)
	if cl.bigSeqs[seq] {
		delete(cl.bigSeqs, seq)
		release = true
	}
	cl.advanceLocked()
	if w := cl.waitSeq.Load(); w != 0 && seq+1 == w {
		cl.waitSeq.Store(0)
		wake = true // parse what arrived while the client was blocked
	}
	if cl.paused && cl.assigned.Load()-cl.written <= maxInFlight/2 && cl.inflight.Load() <= cl.srv.pipelineBytes/2 {
		cl.paused = false
		wake = true // parse the rest of what the client sent
	}
	wake = cl.needWakeLocked() || wake
	return wake, release, false
}

// truncate returns at most n bytes of b, as a string for a log line.
func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// advanceLocked moves the ready prefix of pending (and the pushes held
// behind it) to out.
func (cl *client) advanceLocked() {
	n := 0
	for cl.phead+n < len(cl.pending) && cl.pending[cl.phead+n] != nil {
		seq := cl.written + uint64(n)
		cl.out = append(cl.out, cl.pending[cl.phead+n])
		cl.outBytes += len(cl.pending[cl.phead+n])
		cl.pending[cl.phead+n] = nil
		if len(cl.held) > 0 {
			for _, h := range cl.held[seq] {
				cl.out = append(cl.out, h)
				cl.outBytes += len(h)
			}
			delete(cl.held, seq)
		}
		n++
	}
	if n == 0 {
		return
	}
	cl.phead += n
	if cl.phead >= len(cl.pending)/2 { // amortised O(1): copy only when half is dead
		cl.pending = append(cl.pending[:0], cl.pending[cl.phead:]...)
		cl.phead = 0
	}
	cl.written += uint64(n)
	cl.done.Store(cl.written)
	if cl.closeSeq != 0 && cl.written >= cl.closeSeq {
		cl.closing = true
	}
}

// needWakeLocked reports whether out must be written by a wake-up (none is
// queued and OnTraffic is not running to do it).
func (cl *client) needWakeLocked() bool {
	if len(cl.out) == 0 || cl.inBatch || cl.wakeQueued {
		return false
	}
	cl.wakeQueued = true
	return true
}

// holdFor bounds how long ready replies wait for the rest of their batch
// (holdLocked).
const holdFor = 100 * time.Millisecond

// holdLocked reports whether the ready replies in out wait for the rest
// of the commands read with them, still running on the shards: Redis
// runs everything one read brought before it writes, so a pipeline's
// replies leave in one write, and clients' tests count on it (ioredis's
// select.ts: SET x4 then INFO used to leave in two writes 49 times in
// 50). Not behind a blocked command (its reply may take any time: what
// is before it goes out, as in Redis), a closing connection, or replies
// still leaving; and at most holdFor, after which a wake-up writes what
// is ready. The reply that completes the batch wakes the loop.
func (cl *client) holdLocked() bool {
	if len(cl.out) == 0 || cl.closing || len(cl.tail) > 0 || cl.waitSeq.Load() != 0 || cl.written >= cl.assigned.Load() {
		cl.holdSince = time.Time{}
		return false
	}
	now := time.Now()
	if cl.holdSince.IsZero() {
		cl.holdSince = now
		if cl.holdTimer == nil { // one per client, reset per hold: no allocation per batch
			c := cl.conn
			cl.holdTimer = time.AfterFunc(holdFor, cl.srv.guard().Func("held replies wake-up", func() { _ = c.Wake(nil) }))
		} else {
			cl.holdTimer.Reset(holdFor)
		}
		return true
	}
	if now.Sub(cl.holdSince) < holdFor {
		return true
	}
	cl.holdSince = time.Time{}
	return false
}

func (cl *client) beginBatch() {
	cl.outMu.Lock()
	cl.inBatch = true
	cl.outMu.Unlock()
}

// outWindow bounds the reply bytes handed to gnet and not yet taken by
// the socket: gnet copies what the socket does not take, so a huge reply
// given whole would be held twice.
const outWindow = 4 << 20

// endBatch runs on the event loop at the end of OnTraffic: it writes out,
// after what is left of earlier replies, as far as the window allows; the
// rest waits in tail for a wake-up a millisecond later.
func (cl *client) endBatch() {
	cl.outMu.Lock()
	cl.inBatch = false
	cl.wakeQueued = false
	var bufs [][]byte
	closing := cl.closing
	if !cl.holdLocked() {
		if len(cl.out) > 0 { // else out stays: swapping an empty one in would drop spare
			bufs = cl.out
			cl.out, cl.outBytes, cl.spare = cl.spare, 0, nil
		}
		if closing {
			cl.closed = true
		}
	}
	cl.outMu.Unlock()
	cl.drainClose = cl.drainClose || closing
	if len(cl.tail) > 0 {
		bufs = append(cl.tail, bufs...)
		cl.tail, cl.tailBytes = nil, 0
	}
	if len(bufs) > 0 {
		for _, b := range bufs {
			cl.bigOut = cl.bigOut || len(b) >= bigTransient
		}
		total := 0
		for _, b := range bufs {
			total += len(b)
		}
		cl.tail = cl.writeAll(bufs, outWindow-cl.conn.OutboundBuffered())
		for _, b := range cl.tail {
			cl.tailBytes += len(b)
		}
		if len(cl.tail) == 0 && cap(bufs) <= 1024 {
			clear(bufs)
			cl.spare = bufs[:0] // swapped in as out by the next endBatch
		}
		cl.srv.stats.netOut.Add(int64(total - cl.tailBytes))
		cl.srv.stats.writes.Add(1)
		cl.outBuf.Store(int64(cl.conn.OutboundBuffered() + cl.tailBytes))
		cl.checkOutput(cl.conn)
	}
	if cl.outPaused && cl.tailBytes < int(cl.srv.outputPause/2) {
		cl.outPaused = false
		_ = cl.conn.Wake(nil) // parse what waited
	}
	if len(cl.tail) == 0 && cl.bigOut {
		cl.bigOut = false
		cl.srv.release.soon()
	}
	if cl.handoff != nil {
		cl.tryHandOff()
	}
	switch {
	case len(cl.tail) > 0:
		cl.wakeSoon()
	case cl.drainClose:
		_ = cl.conn.Close()
	}
}

// wakeSoon asks for a wake-up of the event loop a millisecond from now
// (one at a time), to write what the socket could not take yet.
func (cl *client) wakeSoon() {
	if cl.tailWake.CompareAndSwap(false, true) {
		time.AfterFunc(time.Millisecond, cl.srv.guard().Func("output wake-up", func() {
			cl.tailWake.Store(false)
			_ = cl.conn.Wake(nil)
		}))
	}
}

// maxPassOutput bounds the replies the commands one OnTraffic pass runs
// on the loop make; the rest of the pass goes to the shards (OnTraffic).
const maxPassOutput = 1 << 20

// answered reports whether every command of the client before seq has
// its reply: then nothing of the client's is still running anywhere.
func (cl *client) answered(seq uint64) bool { return cl.done.Load() == seq }

// maxInFlight bounds the commands of one connection that are dispatched
// but not yet answered; past it, parsing pauses (the rest waits in the
// input buffer) until half have been answered, so a client pipelining a
// million commands does not fill the actors' mailboxes.
const maxInFlight = 4096

// pauseIfBusy reports whether parsing must stop for now: too many
// commands or argument bytes in flight (a reply resumes it), or too many
// reply bytes unread (endBatch resumes it once they went out; see
// memory.go). It also returns the bytes of replies ready and not yet
// written (one lock per command for both).
func (cl *client) pauseIfBusy() (pause bool, ready int) {
	cl.outMu.Lock()
	defer cl.outMu.Unlock()
	ready = cl.outBytes
	// Unread replies, and those the commands in flight will add, each
	// guessed as big as the recent big ones (all 40 GETs of a 10 MiB value
	// would otherwise be running before the first reply is counted).
	inFlight := int(cl.assigned.Load() - cl.written)
	if cl.tailBytes+cl.outBytes+inFlight*cl.replyEst >= int(cl.srv.outputPause) {
		cl.outPaused = true
		return true, ready
	}
	if inFlight < maxInFlight && cl.inflight.Load() < cl.srv.pipelineBytes {
		return false, ready
	}
	cl.paused = true
	return true, ready
}

// maxIovecs stays under the kernel's IOV_MAX (1024) per writev.
const maxIovecs = 512

// writeAll writes bufs in order, about budget bytes of them, and returns
// the rest: runs of small replies are joined into one buffer, and no
// writev gets more than maxIovecs buffers (a longer one fails with EINVAL
// and gnet would close the connection).
func (cl *client) writeAll(bufs [][]byte, budget int) (rest [][]byte) {
	const small = 4 << 10
	c := cl.conn
	// Small replies are copied into joined; from is where the run not yet
	// in iov starts (a growing joined keeps the bytes before it).
	iov, joined, from := cl.iov[:0], cl.joined[:0], 0
	defer func() {
		clear(iov[:cap(iov)])
		if cap(iov) <= maxIovecs && cap(joined) <= 64<<10 {
			cl.iov, cl.joined = iov[:0], joined[:0]
		}
	}()
	flushJoined := func() {
		if len(joined) > from {
			iov = append(iov, joined[from:len(joined):len(joined)])
			from = len(joined)
		}
	}
	for i, b := range bufs {
		if budget <= 0 {
			rest = bufs[i:]
			break
		}
		if len(b) < small {
			joined = append(joined, b...)
			budget -= len(b)
			continue
		}
		flushJoined()
		if len(b) > budget {
			rest = append([][]byte{b[budget:]}, bufs[i+1:]...)
			b = b[:budget]
		}
		iov = append(iov, b)
		budget -= len(b)
		if len(iov) >= maxIovecs {
			_, _ = c.Writev(iov)
			iov = iov[:0:0]
		}
		if rest != nil {
			break
		}
	}
	flushJoined()
	if len(iov) > 0 {
		_, _ = c.Writev(iov)
	}
	return rest
}

// releaseAfter makes the reply of seq, a command with huge arguments,
// return freed memory to the OS (see releaser).
func (cl *client) releaseAfter(seq uint64) {
	cl.outMu.Lock()
	if cl.bigSeqs == nil {
		cl.bigSeqs = map[uint64]bool{}
	}
	cl.bigSeqs[seq] = true
	cl.outMu.Unlock()
}

// closeAfter makes the connection close once the reply of seq is written.
func (cl *client) closeAfter(seq uint64) {
	cl.outMu.Lock()
	cl.closeSeq = seq + 1
	if cl.written >= cl.closeSeq {
		cl.closing = true
	}
	cl.outMu.Unlock()
}

// push queues an out-of-band message (Pub/Sub) after the replies of every
// command the client sent so far. Safe from any goroutine.
func (cl *client) push(b []byte) {
	cl.outMu.Lock()
	if cl.closed {
		cl.outMu.Unlock()
		return
	}
	if a := cl.assigned.Load(); a > cl.written {
		if cl.held == nil {
			cl.held = map[uint64][][]byte{}
		}
		cl.held[a-1] = append(cl.held[a-1], b)
		cl.outMu.Unlock()
		return
	}
	cl.out = append(cl.out, b)
	cl.outBytes += len(b)
	wake := cl.needWakeLocked()
	cl.outMu.Unlock()
	if wake {
		_ = cl.conn.Wake(nil)
	}
}

// checkOutput runs on the event loop after a write: a client whose unsent
// output exceeds its class's limit (pub/sub or normal) is disconnected.
func (cl *client) checkOutput(c gnet.Conn) {
	limit := int(cl.srv.rt.outNormal.Load())
	if cl.Subscriptions() > 0 {
		limit = int(cl.srv.rt.outPubSub.Load())
	}
	if buffered := c.OutboundBuffered() + cl.tailBytes; limit > 0 && buffered > limit {
		cl.srv.log.Warn("client closed for exceeding its output buffer limit", "id", cl.id, "addr", cl.addr,
			"buffered", buffered, "limit", limit)
		cl.markClosed()
		cl.srv.forget(cl)
		_ = c.Close()
	}
}

func (cl *client) markClosed() {
	cl.outMu.Lock()
	cl.closed = true
	cl.pending, cl.out, cl.held = nil, nil, nil
	cl.outMu.Unlock()
}

// roles returns the client as the roles connection commands use.
func (cl *client) roles() command.Client {
	return command.Client{Conn: cl, Session: cl, Auth: cl, Subs: cl, Txn: cl, Tracking: cl}
}

// The methods below implement command.Client's roles.

func (cl *client) ID() int64 { return cl.id }

func (cl *client) DB() int { return int(cl.db.Load()) }

// namespace returns the id of the client's namespace (that of its
// database: command.NamespaceOf).
func (cl *client) namespace() uint32 { return command.NamespaceOf(cl.DB()) }

func (cl *client) SetDB(db int) {
	cl.mu.Lock()
	from, to := cl.namespace(), command.NamespaceOf(db)
	cl.db.Store(int32(db))
	cl.mu.Unlock()
	if from != to {
		cl.srv.moveSubscriptions(cl, from, to)
	}
}

func (cl *client) Proto() int { return int(cl.proto.Load()) }

func (cl *client) SetProto(p int) {
	cl.mu.Lock()
	cl.proto.Store(int32(p))
	cl.mu.Unlock()
}

func (cl *client) Name() string {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.name
}

func (cl *client) SetName(n string) {
	cl.mu.Lock()
	cl.name = n
	cl.mu.Unlock()
}

func (cl *client) SetLibName(n string) {
	cl.mu.Lock()
	cl.libName = n
	cl.mu.Unlock()
}

func (cl *client) SetLibVer(v string) {
	cl.mu.Lock()
	cl.libVer = v
	cl.mu.Unlock()
}

func (cl *client) CloseAfterReply() { cl.quitting = true }

// Authenticated is true once AUTH succeeded, or while the default user
// needs no password.
func (cl *client) Authenticated() bool { return cl.authed.Load() || cl.srv.defaultOpen() }

// User implements command.Client.
func (cl *client) User() string {
	if u := cl.user.Load(); u != nil {
		return *u
	}
	return "default"
}

// SetUser implements command.Client.
func (cl *client) SetUser(name string) { cl.user.Store(&name) }

func (cl *client) SetAuthenticated() { cl.authed.Store(true) }
