package net

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// What clients may hold, bounded three ways (conf.Sizing shares the
// memory budget among them):
//   - a client's commands in flight: at most maxInFlight commands and
//     Options.PipelineBytes of their arguments; past either, parsing
//     pauses until half are answered, and the connection is not read
//     meanwhile (the rest waits in the kernel: pauseReading);
//   - a client's replies it has not read: once Options.OutputBytes wait,
//     parsing pauses until half went out (a client that pipelines reads
//     without reading their replies is slowed down, not disconnected);
//   - all clients' buffers together (query buffers, commands being
//     assembled, unread replies): past maxmemory-clients the biggest
//     clients are disconnected, as Redis 7 does (CLIENT NO-EVICT ON
//     exempts a client); one client's query buffer past
//     client-query-buffer-limit closes it, as in Redis.

// trackedArgs is the size from which a command's arguments count toward
// the client's pipeline bytes: smaller ones are bounded by maxInFlight
// (4,096 x 4 KiB = 16 MiB).
const trackedArgs = 4 << 10

// inFlight records the arguments of seq, of size bytes, as in flight
// until its reply.
func (cl *client) inFlight(seq uint64, size int) {
	if size < trackedArgs {
		return
	}
	cl.outMu.Lock()
	if cl.argBytes == nil {
		cl.argBytes = map[uint64]int64{}
	}
	cl.argBytes[seq] = int64(size)
	cl.outMu.Unlock()
	cl.inflight.Add(int64(size))
}

// answeredLocked forgets the arguments of seq, which has its reply.
func (cl *client) answeredLocked(seq uint64) {
	if n, ok := cl.argBytes[seq]; ok {
		delete(cl.argBytes, seq)
		cl.inflight.Add(-n)
	}
}

// memory returns the bytes the client holds in buffers, as seen last on
// its event loop: its query buffer, the command being assembled, unread
// replies, and the arguments of its commands in flight.
func (cl *client) memory() int64 {
	return cl.inBuf.Load() + cl.asmBuf.Load() + cl.outBuf.Load() + cl.inflight.Load()
}

// SetNoEvict implements command.Client (CLIENT NO-EVICT).
func (cl *client) SetNoEvict(on bool) { cl.noEvict.Store(on) }

// clientsLimit returns maxmemory-clients in bytes (0: none): a percentage
// is of maxmemory.
func (s *Server) clientsLimit() int64 {
	v := s.rt.clientsMem.Load()
	if v >= 0 {
		return v
	}
	return s.rt.maxMemory.Load() * -v / 100
}

// setClientsLimit applies maxmemory-clients: bytes, or "N%" of maxmemory.
func (s *Server) setClientsLimit(value string) {
	if p, ok := strings.CutSuffix(value, "%"); ok {
		n, _ := strconv.ParseInt(p, 10, 64)
		s.rt.clientsMem.Store(-n)
		return
	}
	n, _ := strconv.ParseInt(value, 10, 64)
	s.rt.clientsMem.Store(n)
}

// evictSoon runs evictClients now unless it ran in the last 10 ms.
func (s *Server) evictSoon() {
	now := time.Now().UnixNano()
	last := s.lastEvict.Load()
	if now-last < int64(10*time.Millisecond) || !s.lastEvict.CompareAndSwap(last, now) {
		return
	}
	s.evictClients()
}

// evictClients disconnects the biggest clients (CLIENT NO-EVICT ones
// excepted) while all clients' buffers together exceed maxmemory-clients.
func (s *Server) evictClients() {
	limit := s.clientsLimit()
	if limit <= 0 {
		return
	}
	type held struct {
		cl *client
		n  int64
	}
	var all []held
	total := int64(0)
	s.clients.Range(func(_, v any) bool {
		cl := v.(*client)
		n := cl.memory()
		total += n
		if !cl.noEvict.Load() && n > 0 {
			all = append(all, held{cl, n})
		}
		return true
	})
	if total <= limit {
		return
	}
	slices.SortFunc(all, func(a, b held) int { return cmp.Compare(b.n, a.n) }) // biggest first
	for _, h := range all {
		if total <= limit {
			break
		}
		if !h.cl.evicted.CompareAndSwap(false, true) {
			continue // being closed already (counted in total until it is gone)
		}
		s.log.Warn("client evicted: all clients' buffers over maxmemory-clients", "id", h.cl.id, "addr", h.cl.addr,
			"client_bytes", h.n, "query_buffer", h.cl.inBuf.Load(), "assembling", h.cl.asmBuf.Load(),
			"output", h.cl.outBuf.Load(), "in_flight", h.cl.inflight.Load(), "clients_bytes", total, "maxmemory_clients", limit)
		s.stats.evictedClients.Add(1)
		h.cl.markClosed()
		s.forget(h.cl)
		_ = h.cl.conn.Close()
		total -= h.n
	}
}

// readPauser is gnet's connection with reading that pauses
// (third_party/gnet/README.rekv.md).
type readPauser interface {
	PauseRead() error
	ResumeRead() error
}

// pauseReading stops reading the connection while its commands are
// stalled (too many in flight, too many replies unread): what the client
// sends then waits in the kernel, and TCP pushes back on it, instead of
// growing gnet's input buffer. A wake-up that runs OnTraffic again, once
// the stall ends, resumes it. A paused connection's end is noticed only
// when rekv writes to it or resumes: never pause for long waits (a
// blocked command).
func pauseReading(c gnet.Conn, stalled bool) {
	p, ok := c.(readPauser)
	if !ok {
		return
	}
	if stalled {
		_ = p.PauseRead()
	} else {
		_ = p.ResumeRead()
	}
}

// overQueryLimit reports whether the client's query buffer (and the
// command being assembled) passed client-query-buffer-limit.
func (s *Server) overQueryLimit(cl *client, buffered int) bool {
	limit := s.rt.queryLimit.Load()
	size := int64(buffered)
	if cl.asm != nil {
		size += cl.asm.Size()
	}
	cl.asmBuf.Store(size - int64(buffered))
	if limit <= 0 || size <= limit {
		return false
	}
	s.log.Warn("closing client that reached max query buffer length", "id", cl.id, "addr", cl.addr,
		"qbuf", size, "limit", limit)
	return true
}

// ExpectReply implements actors.ReplyExpecter: a reply of about n bytes
// is coming, so pauseIfBusy guesses the replies of the commands in
// flight at least that big.
func (cl *client) ExpectReply(n int64) {
	cl.outMu.Lock()
	cl.replyEst = max(cl.replyEst, int(min(n, math.MaxInt32)))
	cl.outMu.Unlock()
}
