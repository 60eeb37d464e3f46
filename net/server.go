package net

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	stdnet "net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/net/tracking"
	"github.com/rekv/rekv/resp"
	"github.com/rekv/rekv/state"
)

// Options configure the network front.
type Options struct {
	Addr      string // host:port
	Multicore bool
	// WaitInRuntime: the event loops wait for clients in Go's network
	// poller instead of blocking their threads in epoll_wait (gnet patch
	// 0002; server.loop_wait), for a store whose work is I/O on other
	// goroutines (TiKV's client): on one CPU those then run on the loop's
	// thread, without thread switches. Not by default on Badger, whose
	// compactions compute without blocking and delay the loop's wake-up.
	WaitInRuntime bool
	Limits        resp.Limits
	MaxClients    int
	// RequirePass, when set, makes clients AUTH first (NOAUTH otherwise).
	RequirePass string
	// ProtectedMode refuses clients from non-loopback addresses while no
	// password is set, as Redis's protected mode does.
	ProtectedMode bool
	// IdleTimeout closes clients idle that long; 0 never.
	IdleTimeout time.Duration
	// OutputLimitNormal and OutputLimitPubSub cap a client's unsent output
	// in bytes (0: no limit); a client over it is disconnected.
	OutputLimitNormal int
	OutputLimitPubSub int
	// NotifyKeyspaceEvents is the initial notify-keyspace-events value.
	NotifyKeyspaceEvents string
	// BusyReplyThreshold is the initial busy-reply-threshold; Busy
	// reports how long the longest-running script has run and whether it
	// is a function (nil: no scripts).
	BusyReplyThreshold time.Duration
	Busy               func() (time.Duration, bool)
	BusyError          func(function bool) error
	// CachedScripts counts the script cache's scripts (INFO memory's
	// number_of_cached_scripts; nil: none).
	CachedScripts func() int
	// Shutdown, when set, stops the process gracefully (SHUTDOWN).
	Shutdown func()
	// Backup, when set, writes a consistent copy of the store (SAVE,
	// BGSAVE) to BackupFile; without it SAVE answers NoBackup.
	// PipelineBytes bounds one client's argument bytes in flight and
	// OutputBytes its unread replies before parsing pauses (memory.go;
	// 0: 16 MiB each).
	PipelineBytes, OutputBytes int64
	Backup                     func(w io.Writer) error
	BackupFile                 string
	NoBackup                   string
	// Cluster is cluster mode's membership (nil: cluster mode is off):
	// commands on keys of slots another node owns get MOVED.
	Cluster ClusterView
	// Bus, when set, carries what clients publish to the other nodes on
	// the store (package bus), whose subscribers get it too.
	Bus Publisher
	// LogLevel, when set, is the logger's level: CONFIG SET loglevel
	// changes it.
	LogLevel *slog.LevelVar
	// SetDurability, when set, changes the store's durability (CONFIG
	// SET appendfsync).
	SetDurability func(level string) error
	// SetEviction, when set, hears maxmemory-policy, lfu-log-factor and
	// lfu-decay-time at start and when CONFIG SET changes them (the keys'
	// LFU counters of OBJECT FREQ).
	SetEviction func(name, value string)
	// Evict, when set, evicts keys under a maxmemory-policy other than
	// noeviction (evict.go); nil: every policy acts as noeviction.
	Evict Evictor
	// ActiveExpire, when set, pauses or resumes the GC's expiry (DEBUG
	// SET-ACTIVE-EXPIRE).
	ActiveExpire func(on bool)
	// Sync, when set, makes committed writes durable now (WAITAOF).
	Sync func() error
	// Compact, when set, compacts the store (BGREWRITEAOF: what Redis's
	// AOF rewrite gives back, rekv's store compaction gives).
	Compact func() error
	// TLS configures the TLS port (tls.go); Port 0: none.
	TLS TLSOptions
	// Replication, when set, is the node's replication (package repl):
	// REPLICAOF, ROLE, INFO replication and a replica's refusals.
	Replication Replication
	// Namespaces is the store's namespaces (NAMESPACE, AUTH <token>);
	// nil: none can be defined.
	Namespaces command.Namespaces
	// Panics counts the panics recovered (package guard), shared with the
	// engine, replication and the bus: INFO's recovered_panics. Nil: the
	// server counts its own.
	Panics *guard.Counter
}

// Info is static server information reported by INFO and CONFIG GET.
type Info struct {
	Version    string
	Port       int
	Driver     string
	ConfigFile string
	Config     [][2]string
	GC         func() [][2]string // INFO gc lines; nil: none
}

// Server is the gnet event handler. It implements command.Server.
type Server struct {
	gnet.BuiltinEventEngine

	opts   Options
	info   Info
	engine *actors.Engine
	// scriptDebug: scripts may call DEBUG (DEBUG
	// SET-DISABLE-DENY-SCRIPTS).
	scriptDebug atomic.Bool
	// cronPaused is DEBUG PAUSE-CRON: the 100 ms housekeeping tick
	// (memory sample, ops meter, maxmemory-clients) skips its work.
	cronPaused atomic.Bool
	reg        *command.Registry
	log        *slog.Logger
	start      time.Time

	eng     gnet.Engine
	booted  chan struct{}
	stopped chan error
	// relisten holds the listeners CONFIG SET port and bind opened
	// (rebind.go); listenBind and listenPort are the values in effect
	// (written under the config's lock).
	relisten   relisten
	listenBind string
	listenPort int

	tracking *tracking.Table
	nsMeters nsMeters  // commands by namespace (namespaces.go)
	tls      *tlsFront // nil without TLS
	acl      *acl.Store
	tlsMu    sync.Mutex // CONFIG SET of tls-* parameters
	// loopsUp is closed at the first OnTick: the event loops run.
	loopsUp   chan struct{}
	loopsOnce sync.Once
	notify    atomic.Uint32 // command.NotifyClass
	busyMs    atomic.Int64  // busy-reply-threshold in ms (0: never BUSY)

	// panics counts the panics recovered (guard.go): Options.Panics.
	panics     *guard.Counter
	nextID     atomic.Int64
	clients    sync.Map // id -> *client
	passes     passes
	nclients   atomic.Int64
	totalConns atomic.Int64
	totalCmds  atomic.Int64
	release    releaser
	conf       *config
	live       map[string]func(value string) error // CONFIG SET of a live parameter (config.go)
	rt         runtimeConf
	paused     pause
	stats      serverStats
	// pipelineBytes and outputPause are Options.PipelineBytes and
	// OutputBytes (memory.go).
	pipelineBytes, outputPause int64
	// lastEvict is when evictSoon last ran evictClients (unix ns).
	lastEvict atomic.Int64
	stopOps   chan struct{}
	// evictKick starts an eviction round; evictStuck says the last one
	// found no key left to evict (evict.go).
	evictKick  chan struct{}
	evictStuck atomic.Bool
	// storageErr is why the store cannot persist writes (nil: healthy),
	// set by the node's storage watch.
	storageErr atomic.Pointer[string]

	// The slow log and the latency monitor (package state) answer
	// SLOWLOG and LATENCY (diagRole).
	slowLog state.SlowLog
	latency state.LatencyMonitor
	// saver answers SAVE, BGSAVE and LASTSAVE (nodeRole); rewriter
	// BGREWRITEAOF.
	saver    state.Saver
	rewriter *state.Rewriter
	// Broker holds the Pub/Sub tables and answers PUBLISH, SPUBLISH and
	// PUBSUB.
	*state.Broker
	// Monitors are the MONITOR clients; Monitor shows them commands.
	state.Monitors
}

// New returns a server for the commands of reg; Start gives it the engine
// they run on (which is built with this server as its command.Server).
func New(o Options, info Info, reg *command.Registry, log *slog.Logger) *Server {
	s := &Server{opts: o, info: info, reg: reg, log: log, start: time.Now(), Broker: state.NewBroker(), tracking: tracking.New(), loopsUp: make(chan struct{}),
		booted: make(chan struct{}), stopped: make(chan error, 1), evictKick: make(chan struct{}, 1)}
	if n, ok := command.ParseNotify(o.NotifyKeyspaceEvents); ok {
		s.notify.Store(uint32(n))
	}
	s.busyMs.Store(o.BusyReplyThreshold.Milliseconds())
	s.panics = cmp.Or(o.Panics, &guard.Counter{})
	s.stats = newServerStats()
	s.stats.cmds.Size(reg.Len())
	s.pipelineBytes, s.outputPause = cmp.Or(o.PipelineBytes, 16<<20), cmp.Or(o.OutputBytes, 16<<20)
	cat, err := acl.RedisCatalog()
	if err != nil {
		panic(fmt.Sprintf("net: the embedded ACL categories are corrupt: %v", err)) // a build defect
	}
	s.acl = acl.New(cat)
	if o.RequirePass != "" {
		_ = s.acl.SetUser("default", []string{"resetpass", ">" + o.RequirePass})
	}
	s.saver.File, s.saver.Backup, s.saver.NoBackup, s.saver.Log = o.BackupFile, o.Backup, o.NoBackup, log
	s.saver.Start(s.start)
	s.rewriter = state.NewRewriter(o.Compact, s.saver.Running, log)
	s.initConfig()
	return s
}

// Start starts the event loops, routing commands to engine, and returns
// once the listener is up.
func (s *Server) Start(engine *actors.Engine) error {
	s.engine = engine
	go func() {
		s.stopped <- gnet.Run(s, "tcp://"+s.opts.Addr,
			// TLS connections are enrolled later (tls.go): gnet asks for a
			// balancer other than round-robin then.
			gnet.WithLoadBalancing(gnet.LeastConnections),
			gnet.WithMulticore(s.opts.Multicore),
			gnet.WithWaitInRuntime(s.opts.WaitInRuntime),
			gnet.WithReusePort(false),
			// SO_REUSEADDR, as Redis and Go's own listeners (TLS,
			// metrics) set it: a restart binds at once although the
			// connections the last process closed are in TIME_WAIT.
			gnet.WithReuseAddr(true),
			gnet.WithTCPNoDelay(gnet.TCPNoDelay),
			gnet.WithTicker(true), // idle timeouts (CONFIG SET timeout)
			gnet.WithLogger(gnetLog{s.log.With("component", "gnet")}))
	}()
	select {
	case <-s.booted:
		if s.opts.TLS.Port > 0 {
			select {
			case <-s.loopsUp:
			case <-time.After(10 * time.Second):
			}
			if err := s.startTLS(); err != nil {
				_ = s.eng.Stop(context.Background())
				<-s.stopped
				return err
			}
		}
		s.stopOps = make(chan struct{})
		go s.sampleOps(s.stopOps)
		go s.evictKeys(s.stopOps)
		return nil
	case err := <-s.stopped:
		return fmt.Errorf("net: listen on %s: %w", s.opts.Addr, err)
	}
}

// Stop closes the listener and every connection, then waits for the loops.
func (s *Server) Stop(ctx context.Context) error {
	if s.stopOps != nil {
		close(s.stopOps)
		s.stopOps = nil
	}
	if s.tls != nil {
		s.tls.stop()
	}
	s.stopRelisten()
	if err := s.eng.Stop(ctx); err != nil {
		return err
	}
	select {
	case <-s.stopped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// OnBoot records the engine.
func (s *Server) OnBoot(eng gnet.Engine) gnet.Action {
	s.eng = eng
	close(s.booted)
	return gnet.None
}

// OnTick closes clients idle longer than the idle timeout. Its first
// call tells that the event loops run (gnet calls OnBoot before it starts
// them): TLS connections may be enrolled from then on.
func (s *Server) OnTick() (time.Duration, gnet.Action) {
	s.loopsOnce.Do(func() { close(s.loopsUp) })
	timeout := time.Duration(s.rt.idleTimeout.Load())
	if timeout <= 0 {
		return time.Second, gnet.None
	}
	deadline := time.Now().Add(-timeout)
	s.clients.Range(func(_, v any) bool {
		cl := v.(*client)
		cl.mu.Lock()
		idle := cl.lastSeen.Before(deadline)
		cl.mu.Unlock()
		if idle {
			_ = cl.conn.Close()
		}
		return true
	})
	return min(time.Second, timeout/2+time.Millisecond), gnet.None
}

// OnOpen registers a client.
func (s *Server) OnOpen(c gnet.Conn) (out []byte, action gnet.Action) {
	defer s.recoverConn(nil, &action)
	if c.Context() == nil && s.relisten.retired.Load() {
		return nil, gnet.Close // the port or address it came to is no longer served (rebind.go)
	}
	if limit := s.rt.maxClients.Load(); limit > 0 && s.nclients.Load() >= limit {
		s.stats.rejectedConns.Add(1)
		return []byte("-ERR max number of clients reached\r\n"), gnet.Close
	}
	remote, addr, laddr := c.RemoteAddr(), c.RemoteAddr().String(), c.LocalAddr().String()
	if o, ok := c.Context().(*tlsOrigin); ok { // a TLS client (tls.go): its real addresses
		addr, laddr = o.remote, o.local
		remote, _ = stdnet.ResolveTCPAddr("tcp", o.remote)
	}
	if refuse(s.opts.ProtectedMode, s.requirePass(), remote) {
		s.stats.rejectedConns.Add(1)
		return []byte(deniedReply), gnet.Close
	}
	now := time.Now()
	cl := &client{srv: s, conn: c, id: s.nextID.Add(1), fd: c.Fd(), addr: addr,
		laddr: laddr, created: now, lastSeen: now, pass: s.passes.of(s.engine, c.EventLoop())}
	// As in Redis, a client that connects while no password is set stays
	// authenticated if one is set later (CONFIG SET requirepass).
	cl.authed.Store(s.requirePass() == "")
	cl.proto.Store(2)
	cl.info = cl.Info
	c.SetContext(cl)
	s.clients.Store(cl.id, cl)
	s.nclients.Add(1)
	s.totalConns.Add(1)
	return nil, gnet.None
}

// OnClose forgets a client; replies still in flight are dropped.
func (s *Server) OnClose(c gnet.Conn, _ error) (action gnet.Action) {
	defer s.recoverConn(nil, &action)
	if cl, ok := c.Context().(*client); ok {
		if cl.inPass {
			cl.pass.end(cl) // its replies are dropped; the others' go out
		}
		cl.markClosed()
		s.holdFor(cl, false)
		if cl.holdTimer != nil {
			cl.holdTimer.Stop()
		}
		if cl.inbound != nil {
			close(cl.inbound)
			cl.inbound = nil
		}
		if cl.bigOut || cl.memory() >= closeRelease {
			// Replies it never read (or a request it never finished)
			// become garbage now: give the memory back, as after a
			// huge reply that went out.
			s.release.soon()
		}
		s.engine.Cancel(cl)
		s.engine.Unwatch(cl.watch)
		s.unsubscribeAll(cl)
		s.RemoveMonitor(cl)
		cl.disableTracking()
		s.forget(cl)
	}
	return gnet.None
}

// OnTraffic parses every complete command in the inbound buffer.
func (s *Server) OnTraffic(c gnet.Conn) (action gnet.Action) {
	cl, ok := c.Context().(*client)
	if !ok {
		return gnet.None
	}
	defer s.recoverConn(cl, &action)
	if cl.inbound != nil { // a replica's link: what it sends goes there
		buf, _ := c.Next(-1)
		select {
		case cl.inbound <- bytes.Clone(buf):
		default: // the link is not reading: it is ending
		}
		return gnet.None
	}
	// Replies that become ready while this runs are written once, at the
	// end (a Wake for pending replies also lands here).
	cl.beginBatch()
	defer cl.endBatch()
	defer cl.pass.endSoon()
	defer s.sendBundle(cl)
	if cl.quitting {
		return gnet.None
	}
	if cl.need > 0 && c.InboundBuffered() < cl.need {
		return gnet.None // the big bulk at the head has not fully arrived
	}
	buf, _ := c.Peek(-1)
	if len(buf) > 0 {
		cl.readAt = time.Now() // the time of every command in buf
	}
	cl.need = 0
	cl.toShards = false
	consumed := 0
	lim := s.limits()
	// stalled: too much of the client's is in flight or unread; its
	// reading pauses. Not behind a blocked command: a client that goes
	// away while blocked must be noticed (its read sees the EOF), or an
	// element could be handed to it.
	stalled := false
	ran := 0 // commands dispatched
	if args := cl.evHeld; args != nil && !cl.quitting && cl.waitSeq.Load() == 0 && !s.orderEvents(cl, args) {
		cl.evHeld = nil
		s.dispatch(cl, args, len(buf) > 0)
	}
	for consumed < len(buf) && !cl.quitting && cl.waitSeq.Load() == 0 {
		pause, ready := cl.pauseIfBusy()
		if pause {
			stalled = true
			break
		}
		if !cl.toShards && ready >= maxPassOutput {
			// Big replies (a pipeline of big reads): the rest of this
			// pass goes to the shards, which make them in parallel while
			// the loop serves its other clients, as it writes them out.
			cl.pass.end(cl)
			cl.toShards = true
		}
		if cl.asm != nil {
			// A command with a big argument, copied out as it arrives.
			n, args, err := cl.asm.Feed(buf[consumed:])
			consumed += n
			if err != nil {
				s.protocolError(cl, err)
				consumed = len(buf)
				break
			}
			if args == nil {
				break
			}
			// Its bytes are the arguments in flight from now on
			// (dispatch counts them): no longer the assembler's, or a
			// check while the command runs counts them twice.
			cl.asm = nil
			cl.asmBuf.Store(0)
			if len(args) > 0 {
				if s.orderEvents(cl, args) {
					cl.evHeld = args // dispatched when the write before replies
					break
				}
				s.dispatch(cl, args, consumed < len(buf))
			}
			continue
		}
		r, err := resp.Parse(buf[consumed:], lim, cl.scratch)
		if err != nil {
			s.protocolError(cl, err)
			consumed = len(buf)
			break
		}
		if r.N == 0 {
			if r.Need >= resp.BigArg && buf[consumed] == '*' {
				cl.asm = resp.NewAssembler(lim)
				continue
			}
			cl.need = r.Need
			break
		}
		if len(r.Args) > 0 && s.paused.until.Load() != 0 {
			if spec, _ := s.reg.Resolve(r.Args); spec != nil {
				if until, held := s.held(spec, cl, r.Args); held {
					c := cl.conn
					time.AfterFunc(time.Until(until), s.guard().Func("pause wake-up", func() { _ = c.Wake(nil) }))
					s.holdFor(cl, true)
					break // stays in the input buffer until the pause ends
				}
			}
		}
		if cl.pauseHeld {
			s.holdFor(cl, false)
		}
		if s.orderEvents(cl, r.Args) {
			break // stays in the input buffer until the write before replies
		}
		cl.reading.Store(int64(len(buf) - consumed))
		consumed += r.N
		cl.scratch = r.Args[:0]
		if len(r.Args) > 0 {
			s.dispatch(cl, cl.args.Copy(r.Args), consumed < len(buf)) // out of gnet's buffer
			ran++
			if ran%store.MaxWarm == 1 && consumed < len(buf) {
				cl.pass.warm(cl, buf[consumed:])
			}
		}
	}
	if consumed > 0 {
		_, _ = c.Discard(consumed)
		s.stats.netIn.Add(int64(consumed))
	}
	buffered := c.InboundBuffered()
	cl.inBuf.Store(int64(buffered))
	cl.reading.Store(0)
	s.stats.reads.Add(1)
	pauseReading(c, stalled)
	if s.overQueryLimit(cl, buffered) {
		cl.markClosed()
		return gnet.Close
	}
	if limit := s.clientsLimit(); limit > 0 && cl.memory() >= limit/8 {
		s.evictSoon() // a big client growing: do not wait for the next tick
	}
	return gnet.None
}

// protocolError answers a malformed request and closes the connection once
// the replies before it are out, as Redis does.
func (s *Server) protocolError(cl *client, err error) {
	seq := cl.nextSeq
	cl.nextSeq++
	cl.assigned.Store(cl.nextSeq)
	w := resp.NewWriter(2)
	command.Reply(w, err, "", s.log)
	cl.Reply(seq, w.Bytes())
	cl.closeAfter(seq)
	cl.quitting = true
}

// forget removes a client from the clients the server lists (CLIENT
// LIST, INFO's connected_clients), once: when it closes, or as soon as it
// is killed (CLIENT KILL), before its connection has finished closing on
// its event loop.
func (s *Server) forget(cl *client) {
	if cl.forgotten.CompareAndSwap(false, true) {
		s.clients.Delete(cl.id)
		s.nclients.Add(-1)
	}
}
