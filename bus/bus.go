package bus

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/guard"
)

// Key is a key of a logical database.
type Key struct {
	DB  int
	Key []byte
}

// Handler receives what peers send. Its functions are called from the
// connection's reading goroutine, one message at a time per peer.
type Handler struct {
	Publish      func(ns uint32, channel, msg []byte)
	PublishShard func(ns uint32, channel, msg []byte)
	Ready        func(keys []Key)
	Invalidate   func(keys []Key, flushed bool)
}

// Options configure a node's bus.
type Options struct {
	// Addr is the address to listen on (host:port; port 0 picks one).
	Addr string
	// ID is this node's id, which it introduces itself with on each
	// connection it opens, so the peer can name the link (Links).
	ID string
	// Peers returns the other live nodes: id -> bus address.
	Peers func() map[string]string
	// QueueLen bounds each peer's queue of unsent messages (default 65536).
	QueueLen int
	Handler  Handler
	Log      *slog.Logger
	// Panics, when set, counts the panics of handlers the bus recovered
	// (package guard): the frame's link is closed, the bus goes on.
	Panics *guard.Counter
}

// MaxFrame bounds a frame's payload (a Pub/Sub message is at most
// proto-max-bulk-len, 512 MiB).
const MaxFrame = 1<<29 + 1<<20

const (
	kindPublish byte = 1 + iota
	kindPublishShard
	kindReady
	kindInvalidate
	// kindHello is the first frame on a connection: the dialling node's
	// id.
	kindHello
	// kindPublishNS and kindPublishShardNS are a named namespace's
	// PUBLISH and SPUBLISH: its id (4 bytes), then as kindPublish.
	kindPublishNS
	kindPublishShardNS
)

// Stats are the bus's counters.
type Stats struct {
	Peers       int      // live nodes the bus sends to
	Unreachable []string // ids of those it has no connection to
	Sent        int64    // messages written to peers
	Received    int64    // messages read from peers
	Dropped     int64    // messages dropped: a peer's queue was full
}

// Bus is one node's end of the bus.
type Bus struct {
	o        Options
	ln       net.Listener
	mu       sync.Mutex
	peers    map[string]*peer
	sent     atomic.Int64
	received atomic.Int64
	dropped  atomic.Int64
	stop     chan struct{}
	wg       sync.WaitGroup
	inMu     sync.Mutex
	inbound  map[net.Conn]*inLink
	closed   atomic.Bool
}

// Start listens on o.Addr and starts keeping connections to the peers.
func Start(o Options) (*Bus, error) {
	if o.QueueLen <= 0 {
		o.QueueLen = 1 << 16
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("bus: %w", err)
	}
	b := &Bus{o: o, ln: ln, peers: map[string]*peer{}, stop: make(chan struct{}), inbound: map[net.Conn]*inLink{}}
	b.wg.Add(2)
	go b.accept()
	go b.watchPeers()
	return b, nil
}

// Addr returns the address the bus listens on.
func (b *Bus) Addr() string { return b.ln.Addr().String() }

// Close stops the bus: its listener, its connections and their queues.
func (b *Bus) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	b.mu.Lock()
	close(b.stop)
	for id, p := range b.peers {
		p.close()
		delete(b.peers, id)
	}
	b.mu.Unlock()
	err := b.ln.Close()
	b.inMu.Lock()
	for c := range b.inbound {
		c.Close()
	}
	b.inMu.Unlock()
	b.wg.Wait()
	return err
}

// Stats returns the bus's counters.
func (b *Bus) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := Stats{Peers: len(b.peers), Sent: b.sent.Load(), Received: b.received.Load(), Dropped: b.dropped.Load()}
	for id, p := range b.peers {
		if p.since.Load() == 0 {
			st.Unreachable = append(st.Unreachable, id)
		}
	}
	slices.Sort(st.Unreachable)
	return st
}

// Publish sends a PUBLISH of namespace ns to every peer.
func (b *Bus) Publish(ns uint32, channel, msg []byte) {
	if ns == 0 {
		b.send(kindPublish, pair(channel, msg))
		return
	}
	b.send(kindPublishNS, append(binary.BigEndian.AppendUint32(nil, ns), pair(channel, msg)...))
}

// PublishShard sends an SPUBLISH of namespace ns to every peer.
func (b *Bus) PublishShard(ns uint32, channel, msg []byte) {
	if ns == 0 {
		b.send(kindPublishShard, pair(channel, msg))
		return
	}
	b.send(kindPublishShardNS, append(binary.BigEndian.AppendUint32(nil, ns), pair(channel, msg)...))
}

// Ready tells every peer that keys got elements blocked clients may take.
func (b *Bus) Ready(keys []Key) {
	if len(keys) > 0 {
		b.send(kindReady, encodeKeys(nil, keys))
	}
}

// Invalidate tells every peer that keys changed (flushed: every key).
func (b *Bus) Invalidate(keys []Key, flushed bool) {
	if len(keys) == 0 && !flushed {
		return
	}
	f := byte(0)
	if flushed {
		f = 1
	}
	b.send(kindInvalidate, encodeKeys([]byte{f}, keys))
}

// frame returns payload framed as kind.
func frame(kind byte, payload []byte) []byte {
	f := make([]byte, 5, 5+len(payload))
	f[0] = kind
	binary.BigEndian.PutUint32(f[1:], uint32(len(payload)))
	return append(f, payload...)
}

// send queues a frame for every peer.
func (b *Bus) send(kind byte, payload []byte) {
	f := frame(kind, payload)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.peers {
		select {
		case p.queue <- f:
			p.queued.Add(int64(len(f)))
		default:
			b.dropped.Add(1)
		}
	}
}

func pair(a, c []byte) []byte {
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(a)+len(c)), uint32(len(a)))
	return append(append(out, a...), c...)
}

func encodeKeys(out []byte, keys []Key) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(keys)))
	for _, k := range keys {
		out = append(out, byte(k.DB))
		out = binary.BigEndian.AppendUint32(out, uint32(len(k.Key)))
		out = append(out, k.Key...)
	}
	return out
}

var errFrame = errors.New("bus: malformed frame")

func decodeKeys(b []byte) ([]Key, error) {
	if len(b) < 4 {
		return nil, errFrame
	}
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	keys := make([]Key, 0, min(int(n), len(b)/5))
	for range n {
		if len(b) < 5 || len(b) < 5+int(binary.BigEndian.Uint32(b[1:])) {
			return nil, errFrame
		}
		l := int(binary.BigEndian.Uint32(b[1:]))
		keys = append(keys, Key{DB: int(b[0]), Key: b[5 : 5+l]})
		b = b[5+l:]
	}
	return keys, nil
}

// watchPeers keeps one peer per live node: new ones get a connection,
// gone ones lose theirs.
func (b *Bus) watchPeers() {
	defer b.wg.Done()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		want := b.o.Peers()
		b.mu.Lock()
		if b.closed.Load() {
			b.mu.Unlock()
			return
		}
		for id, p := range b.peers {
			if addr, ok := want[id]; !ok || addr != p.addr {
				p.close()
				delete(b.peers, id)
			}
		}
		for id, addr := range want {
			if _, ok := b.peers[id]; !ok {
				p := &peer{b: b, id: id, addr: addr, queue: make(chan []byte, b.o.QueueLen), done: make(chan struct{})}
				b.peers[id] = p
				b.wg.Add(1)
				go p.run()
			}
		}
		b.mu.Unlock()
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
	}
}

// peer is the outbound connection to one node and its queue.
type peer struct {
	b        *Bus
	id, addr string
	queue    chan []byte
	done     chan struct{}
	once     sync.Once
	// since is when the connection in use was opened (unix nanoseconds;
	// 0 while there is none: the peer is unreachable); queued, the bytes
	// of the frames waiting in queue.
	since  atomic.Int64
	queued atomic.Int64
}

func (p *peer) close() { p.once.Do(func() { close(p.done) }) }

// run dials the peer and writes its queue, dialling again a second after
// a failure, until the peer is closed.
func (p *peer) run() {
	defer p.b.wg.Done()
	lost := false // logged as unreachable
	for {
		c, err := net.DialTimeout("tcp", p.addr, time.Second)
		if err == nil {
			if lost {
				p.b.o.Log.Info("bus: peer reachable again", "peer", p.id, "addr", p.addr)
				lost = false
			}
			p.since.Store(time.Now().UnixNano())
			err = p.write(c)
			p.since.Store(0)
			c.Close()
			if err == nil {
				return // closed
			}
		}
		if !lost {
			p.b.o.Log.Warn("bus: cannot reach peer", "peer", p.id, "addr", p.addr, "err", err)
			lost = true
		}
		select {
		case <-p.done:
			return
		case <-time.After(time.Second):
		}
	}
}

// write sends the queue's frames on c until the peer is closed (nil) or
// the connection fails.
func (p *peer) write(c net.Conn) error {
	w := bufio.NewWriterSize(c, writeBuffer)
	if _, err := w.Write(frame(kindHello, []byte(p.b.o.ID))); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for {
		select {
		case <-p.done:
			return nil
		case f := <-p.queue:
			p.queued.Add(-int64(len(f)))
			if _, err := w.Write(f); err != nil {
				return err
			}
			p.b.sent.Add(1)
			// Write what else is queued, then flush once.
			for more := len(p.queue); more > 0; more-- {
				f := <-p.queue
				p.queued.Add(-int64(len(f)))
				if _, err := w.Write(f); err != nil {
					return err
				}
				p.b.sent.Add(1)
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
}

func (b *Bus) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return // closed
		}
		b.inMu.Lock()
		if b.closed.Load() {
			b.inMu.Unlock()
			c.Close()
			return
		}
		l := &inLink{created: time.Now()}
		b.inbound[c] = l
		b.inMu.Unlock()
		b.wg.Add(1)
		go b.read(c, l)
	}
}

// read dispatches the frames a peer sends until its connection ends.
func (b *Bus) read(c net.Conn, l *inLink) {
	defer b.wg.Done()
	defer func() {
		b.inMu.Lock()
		delete(b.inbound, c)
		b.inMu.Unlock()
		c.Close()
	}()
	r := bufio.NewReaderSize(c, 64<<10)
	var head [5]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(head[1:])
		if n > MaxFrame {
			b.o.Log.Warn("bus: frame too large from a peer", "bytes", n, "remote", c.RemoteAddr().String())
			return
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		if head[0] == kindHello {
			b.inMu.Lock()
			l.node = string(payload)
			b.inMu.Unlock()
			continue
		}
		if err := b.handle(head[0], payload, c); err != nil {
			b.o.Log.Warn("bus: bad frame from a peer", "err", err, "remote", c.RemoteAddr().String())
			return
		}
		b.received.Add(1)
	}
}

// handle dispatches one frame; a handler's panic is reported and ends
// the frame's link (errFrame), not the process.
func (b *Bus) handle(kind byte, p []byte, c net.Conn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			guard.Guard{Log: b.o.Log, Count: b.o.Panics}.Report(r, "bus: a peer's frame panicked", "kind", kind, "remote", c.RemoteAddr().String())
			err = errFrame
		}
	}()
	return b.dispatch(kind, p)
}

func (b *Bus) dispatch(kind byte, p []byte) error {
	h := b.o.Handler
	switch kind {
	case kindPublish, kindPublishShard, kindPublishNS, kindPublishShardNS:
		var ns uint32
		if kind == kindPublishNS || kind == kindPublishShardNS {
			if len(p) < 4 {
				return errFrame
			}
			ns, p = binary.BigEndian.Uint32(p), p[4:]
		}
		if len(p) < 4 || len(p) < 4+int(binary.BigEndian.Uint32(p)) {
			return errFrame
		}
		n := int(binary.BigEndian.Uint32(p))
		ch, msg := p[4:4+n], p[4+n:]
		shard := kind == kindPublishShard || kind == kindPublishShardNS
		if !shard && h.Publish != nil {
			h.Publish(ns, ch, msg)
		} else if shard && h.PublishShard != nil {
			h.PublishShard(ns, ch, msg)
		}
	case kindReady:
		keys, err := decodeKeys(p)
		if err != nil {
			return err
		}
		if h.Ready != nil {
			h.Ready(keys)
		}
	case kindInvalidate:
		if len(p) < 1 {
			return errFrame
		}
		keys, err := decodeKeys(p[1:])
		if err != nil {
			return err
		}
		if h.Invalidate != nil {
			h.Invalidate(keys, p[0] == 1)
		}
	default:
		return fmt.Errorf("%w: kind %d", errFrame, kind)
	}
	return nil
}
