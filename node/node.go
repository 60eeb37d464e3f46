package node

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/all"
	"github.com/rekv/rekv/actors/command/scripting"
	"github.com/rekv/rekv/actors/command/server"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/bus"
	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/cluster/membership"
	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/badger"
	"github.com/rekv/rekv/drivers/tikv"
	"github.com/rekv/rekv/gc"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/metrics"
	"github.com/rekv/rekv/namespaces"
	rnet "github.com/rekv/rekv/net"
	"github.com/rekv/rekv/repl"
	"github.com/rekv/rekv/resp"
)

// Version is the Redis version rekv reports; its semantics follow it.
const Version = "7.2.0"

// Node is a running server.
type Node struct {
	// panics counts the panics recovered anywhere in the node (package
	// guard; INFO's recovered_panics).
	panics guard.Counter
	lfu    *store.LFU // the LFU policy's settings (OBJECT FREQ)
	// expireLazily is the collector once started, which the engine's
	// Expired hook (lazy expiry) hands keys to.
	expireLazily atomic.Pointer[gc.Collector]
	cfg          conf.Config
	drv          drivers.Driver
	engine       *actors.Engine
	net          *rnet.Server
	log          *slog.Logger
	gc           *gc.Collector
	// members is the node's membership (cluster mode or a shared store;
	// nil otherwise), bus its messages to the other nodes (a shared
	// store); serving is set once the engine and clients may take what
	// the bus brings.
	members atomic.Pointer[membership.Membership]
	// live is the engine once started, for the membership's goroutine.
	live    atomic.Pointer[actors.Engine]
	bus     *bus.Bus
	serving atomic.Bool
	// repl is the node's replication (REPLICAOF).
	repl *repl.Replica
	// GCStats are the collector's counters.
	GCStats *gc.Stats
	metrics *metrics.Server // nil unless metrics.addr is set
	// shutdown is closed by SHUTDOWN (Done).
	shutdown chan struct{}
	// suspect wakes the storage watch (health.go); stopWatch ends it.
	suspect      chan struct{}
	probing      chan error   // a probe still running (health.go), owned by the health loop
	probeSince   atomic.Int64 // when it started (unix ns; 0: none), for Renew's stuck
	stopWatch    chan struct{}
	shutdownOnce sync.Once

	closeOnce sync.Once
	closeErr  error
}

// Option adjusts how a node starts.
type Option func(*options)

type options struct {
	level    *slog.LevelVar
	commands []*command.Spec
}

// WithCommands adds commands to the ones rekv serves (an embedder's own,
// or a test's faults): each Spec runs like rekv's, on the same path.
func WithCommands(specs ...*command.Spec) Option {
	return func(o *options) { o.commands = append(o.commands, specs...) }
}

// WithLogLevel hands the node the level of its logger, which CONFIG SET
// loglevel then changes (debug; verbose and notice: info; warning).
func WithLogLevel(level *slog.LevelVar) Option { return func(o *options) { o.level = level } }

// Start opens storage and starts serving. configFile is reported by INFO.
func Start(cfg conf.Config, configFile string, log *slog.Logger, opts ...Option) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	drv, err := openDriver(cfg.Storage, log)
	if err != nil {
		return nil, err
	}
	if file := cfg.Storage.Badger.Restore; file != "" && cfg.Storage.Driver == "badger" {
		if err := restore(drv, file, log); err != nil {
			return nil, errors.Join(err, drv.Close())
		}
	}
	return StartWithDriver(cfg, configFile, drv, log, opts...)
}

// StartWithDriver starts serving on an already open driver, which the node
// then owns and closes.
func StartWithDriver(cfg conf.Config, configFile string, drv drivers.Driver, log *slog.Logger, opts ...Option) (*Node, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	scripts := scripting.New(scripting.Options{Version: Version, MaxMemory: uint64(cfg.Server.LuaMaxMemoryMiB) << 20})
	reg := all.Registry(scripts, o.commands)
	n := &Node{lfu: store.NewLFU(), cfg: cfg, drv: drv, log: log, GCStats: &gc.Stats{}, shutdown: make(chan struct{}),
		suspect: make(chan struct{}, 1), stopWatch: make(chan struct{})}
	var err error
	shared := Shared(cfg.Storage)
	info := rnet.Info{Version: Version, Port: cfg.Server.Port, Driver: cfg.Storage.Driver,
		ConfigFile: configFile, Config: configParams(cfg), GC: n.GCStats.Fields}
	limits := resp.Limits{MaxBulkLen: cfg.Server.ProtoMaxBulkLen, MaxArgs: cfg.Server.MaxMultibulkLen,
		MaxInline: cfg.Server.MaxInlineLen}
	addr := cfg.Server.Bind + ":" + strconv.Itoa(cfg.Server.Port)
	var clusterView rnet.ClusterView
	var publisher rnet.Publisher
	if cfg.Cluster.Enabled || shared {
		if err := n.joinPeers(cfg, shared, log); err != nil {
			return nil, errors.Join(err, drv.Close())
		}
		if cfg.Cluster.Enabled {
			clusterView = n.members.Load()
		}
		if n.bus != nil {
			publisher = busPublisher{n.bus, !cfg.Cluster.Enabled}
		}
	}
	spaces, err := namespaces.Load(drv)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("namespaces: %w", err), n.leave(), drv.Close())
	}
	n.repl = repl.New(repl.Options{Registry: reg, Namespaces: spaces, Dir: syncDir(cfg.Storage), Shared: shared, Drv: drv, Version: Version,
		Port:   func() int { return cfg.Server.Port },
		Config: n.configValue, Publish: func(ch, msg []byte) { n.net.Publish(0, ch, msg) },
		PublishShard: func(ch, msg []byte) { n.net.PublishShard(0, ch, msg) }, PauseWrites: n.pauseWrites,
		Log: log.With("component", "repl"), Panics: &n.panics})
	n.net = rnet.New(rnet.Options{Cluster: clusterView, Bus: publisher, Replication: n.repl, Panics: &n.panics,
		Namespaces: spaces, Addr: addr, Multicore: cfg.Server.Multicore, Limits: limits,
		WaitInRuntime: cfg.Server.LoopWait == "runtime" || cfg.Server.LoopWait == "auto" && cfg.Storage.Driver == "tikv",
		MaxClients:    cfg.Server.MaxClients, RequirePass: cfg.Server.RequirePass,
		ProtectedMode:        cfg.Server.ProtectedMode,
		IdleTimeout:          time.Duration(cfg.Server.Timeout) * time.Second,
		OutputLimitNormal:    cfg.Server.OutputBufferLimitNormal,
		OutputLimitPubSub:    cfg.Server.OutputBufferLimitPubSub,
		PipelineBytes:        cfg.Memory.Sizing().PipelineBytes,
		OutputBytes:          cfg.Memory.Sizing().OutputBytes,
		NotifyKeyspaceEvents: cfg.Server.NotifyKeyspaceEvents,
		BusyReplyThreshold:   time.Duration(cfg.Server.BusyReplyThreshold) * time.Millisecond,
		Busy:                 scripts.Busy, BusyError: scripting.BusyError, CachedScripts: scripts.Cached,
		Shutdown: func() { n.shutdownOnce.Do(func() { close(n.shutdown) }) },
		Backup:   backupOf(drv),
		TLS: rnet.TLSOptions{Port: cfg.Server.TLSPort, CertFile: cfg.Server.TLSCertFile, KeyFile: cfg.Server.TLSKeyFile,
			CAFile: cfg.Server.TLSCACertFile, AuthClients: cfg.Server.TLSAuthClients, Protocols: cfg.Server.TLSProtocols},
		LogLevel: o.level,
		Sync: func() error {
			if s, ok := drv.(drivers.Syncer); ok {
				return s.Sync()
			}
			return nil
		},
		Compact: func() error {
			if c, ok := drv.(drivers.Compactor); ok {
				return c.Compact()
			}
			if s, ok := drv.(drivers.Syncer); ok {
				return s.Sync()
			}
			return nil
		},
		ActiveExpire: func(on bool) {
			if n.gc != nil {
				n.gc.SetActiveExpire(on)
			}
		},
		Evict: func(policy string, samples int, need int64, limit int) (int, int64, error) {
			if n.gc == nil {
				return 0, 0, nil
			}
			return n.gc.Evict(context.Background(), policy, samples, need, limit)
		},
		SetEviction: func(name, value string) {
			v, _ := strconv.ParseInt(value, 10, 64)
			n.lfu.Set(name, v, value)
		},
		SetDurability: func() func(string) error {
			if d, ok := drv.(drivers.DurabilitySetter); ok {
				return d.SetDurability
			}
			return nil
		}(),
		BackupFile: cfg.Storage.Badger.BackupPath(),
		NoBackup:   "SAVE needs the badger driver: back up a TiKV cluster with its own tools (BR)"}, info, reg, log)
	if err := n.net.StartConfig(cfg.Server.Redis); err != nil {
		return nil, errors.Join(fmt.Errorf("server.redis: %w", err), n.leave(), drv.Close())
	}
	if err := n.startACL(drv, shared); err != nil {
		return nil, errors.Join(err, n.leave(), drv.Close())
	}

	var servesFn func([]store.KeyRef) error
	var leased func() bool
	if m := n.members.Load(); cfg.Cluster.Enabled && m != nil {
		servesFn, leased = serves(m), m.Healthy
	}
	n.engine, err = actors.New(actors.Options{Shards: cfg.Actors.ShardCount(runtime.GOMAXPROCS(0), shared), MetaCacheSize: cfg.Actors.MetaCacheSize, MemberCacheSize: cfg.Actors.MemberCacheSize, LFU: n.lfu,
		ListCacheBytes: cfg.Actors.ListCacheMiB << 20,
		ScanCursors:    cfg.Actors.ScanCursors, Shared: shared, Owned: servesFn != nil, Panics: &n.panics,
		Hooks: actors.Hooks{Slow: n.net.Slow, Track: n.net.TrackKeys, Invalidate: n.invalidate, Ready: n.ready, Expired: n.expired,
			StorageError: n.suspectStorage, Serves: servesFn, Leased: leased}}, drv, reg, n.net.Roles(), log)
	if err != nil {
		return nil, errors.Join(err, n.leave(), drv.Close())
	}
	n.live.Store(n.engine)
	gco := gc.Options{Interval: cfg.GC.Interval, BatchSize: cfg.GC.BatchSize,
		MaxKeysPerSecond: cfg.GC.MaxKeysPerSecond, Foreground: n.net.CommandsProcessed, OrphanInterval: cfg.GC.OrphanInterval,
		OrphanBatch: cfg.GC.OrphanBatch, CompactAfter: cfg.GC.CompactAfterKeys,
		MeterInterval: cfg.GC.MeterInterval, MeterBatch: cfg.GC.MeterBatch,
		ExpireCycle: func(d time.Duration) { n.net.LatencyEvent("expire-cycle", d) }, Paused: n.net.Paused}
	if m := n.members.Load(); cfg.Cluster.Enabled && m != nil {
		// Each node collects the keys of its own slots, all at once.
		gco.Owns = func(key []byte) bool { return m.State().Serves(cluster.KeySlot(key)) }
		gco.Sweeps = func() bool { return m.State().Mine(0) }
	} else {
		gco.Lease = lease(shared, cfg.Storage.TiKV)
	}
	n.gc = gc.New(gco,
		drv, n.engine, n.GCStats, log.With("component", "gc"))
	n.expireLazily.Store(n.gc)
	if err := n.gc.Start(); err != nil {
		return nil, errors.Join(err, n.leave(), n.engine.Stop(context.Background()), drv.Close())
	}
	n.repl.SetEngine(n.engine)
	if err := n.net.Start(n.engine); err != nil {
		return nil, errors.Join(err, n.leave(), n.engine.Stop(context.Background()), drv.Close())
	}
	if err := n.followConfigured(); err != nil {
		return nil, errors.Join(err, n.Close(context.Background()))
	}
	n.serving.Store(true) // the bus may hand messages to the engine and clients now
	go n.watchStorage(n.stopWatch)
	go n.watchNamespaces(spaces, n.stopWatch)
	if cfg.Metrics.Addr != "" {
		src := metrics.Sources{Net: n.net.Metrics, GC: n.GCStats.Fields}
		if s, ok := drv.(drivers.Sizer); ok {
			src.Storage = s.Sizes
		}
		if n.metrics, err = metrics.Start(cfg.Metrics.Addr, src, log); err != nil {
			return nil, errors.Join(fmt.Errorf("metrics: %w", err), n.Close(context.Background()))
		}
	}
	log.Info("rekv ready", "addr", addr, "driver", cfg.Storage.Driver, "shards", n.engine.Shards())
	return n, nil
}

// Done is closed when a client asks the node to stop (SHUTDOWN); the
// process then closes it.
func (n *Node) Done() <-chan struct{} { return n.shutdown }

// MetricsAddr returns the address /metrics is served on ("" when off).
func (n *Node) MetricsAddr() string {
	if n.metrics == nil {
		return ""
	}
	return n.metrics.Addr()
}

// Driver returns the node's storage driver (tests inspect storage).
func (n *Node) Driver() drivers.Driver { return n.drv }

// GC returns the node's collector (tests run passes and inject faults).
// expired deletes keys a command found expired (the engine's Expired
// hook) through the collector, once it runs.
func (n *Node) expired(refs []store.ExpiredRef) {
	if c := n.expireLazily.Load(); c != nil {
		c.ExpireLazily(refs)
	}
}

func (n *Node) GC() *gc.Collector { return n.gc }

// Addr returns the address the node listens on.
func (n *Node) Addr() string {
	return n.cfg.Server.Bind + ":" + strconv.Itoa(n.cfg.Server.Port)
}

// Close shuts the node down gracefully; later calls return the first
// call's result.
func (n *Node) Close(ctx context.Context) error {
	n.closeOnce.Do(func() {
		close(n.stopWatch)
		var errMetrics error
		if n.metrics != nil {
			errMetrics = n.metrics.Close(ctx)
		}
		// Its slots move before its clients go. Leaving is a courtesy: if
		// the store cannot be reached, the other nodes drop this one when
		// its lease ends.
		start := time.Now()
		if err := n.leave(); err != nil {
			n.log.Warn("cluster: could not leave at once; the other nodes will drop this node when its lease ends", "err", err)
		}
		left := time.Since(start)
		n.repl.Close()
		errNet := n.net.Stop(ctx)
		netStopped := time.Since(start)
		if n.gc != nil {
			n.gc.Stop() // a long reclaim must not hold the actors' stop
		}
		errActors := n.engine.Stop(ctx)
		actorsStopped := time.Since(start)
		errDrv := n.drv.Close()
		n.closeErr = errors.Join(errMetrics, errNet, errActors, errDrv)
		if took := time.Since(start); took > slowClose || n.closeErr != nil {
			// Which step held the close: the actors wait for the store
			// calls in flight (each bounded by the request timeout).
			n.log.Warn("slow or failed close", "took", took, "leave", left, "network", netStopped-left,
				"actors", actorsStopped-netStopped, "store", took-actorsStopped, "err", n.closeErr)
		}
	})
	return n.closeErr
}

// slowClose is how long a close may take before it logs its steps' times.
const slowClose = 2 * time.Second

// TLSAddr returns the TLS listener's address ("" without TLS).
func (n *Node) TLSAddr() string { return n.net.TLSAddr() }

// ShutdownTimeout returns how long a graceful stop may take: the
// shutdown-timeout parameter (CONFIG SET changes it), in seconds.
func (n *Node) ShutdownTimeout() time.Duration {
	if s, err := strconv.Atoi(n.configValue("shutdown-timeout")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return n.cfg.Server.ShutdownTimeout
}

// Durability returns the store's durability level, for the exit message.
func (n *Node) Durability() string { return n.configValue("appendfsync") }

// joinPeers makes the node a member of the nodes on its store: in cluster
// mode to share the slots, on a shared store to exchange messages on the
// bus (started here too), announced at cluster.announce_ip/port (default
// the bind address and port).
func (n *Node) joinPeers(cfg conf.Config, shared bool, log *slog.Logger) error {
	bind := strings.TrimPrefix(strings.Fields(cfg.Server.Bind + " ")[0], "-")
	ip, port := cfg.Cluster.AnnounceIP, cfg.Cluster.AnnouncePort
	if ip == "" {
		ip = bind
	}
	if port == 0 {
		port = cfg.Server.Port
	}
	self := cluster.Member{ID: membership.NewID(), IP: ip, Port: port}
	if shared {
		var err error
		n.bus, err = bus.Start(bus.Options{Addr: net.JoinHostPort(bind, strconv.Itoa(cfg.Cluster.BusPort)), ID: self.ID,
			Peers: n.peers, Handler: n.busHandler(), Log: log.With("component", "bus"), Panics: &n.panics})
		if err != nil {
			return err
		}
		_, p, _ := net.SplitHostPort(n.bus.Addr())
		self.BusPort, _ = strconv.Atoi(p)
	}
	m, err := membership.Join(n.drv, membership.Options{Self: self, Term: cfg.Cluster.NodeTimeout, NoSlots: !cfg.Cluster.Enabled,
		Apply: func() {
			if e := n.live.Load(); e != nil {
				e.Quiesce(func() {}) // the writes begun under the old map are done
			}
		},
		Gained: func() error {
			if e := n.live.Load(); e != nil {
				// Entries of slots served before may be stale now.
				ctx, cancel := context.WithTimeout(context.Background(), cfg.Cluster.NodeTimeout)
				defer cancel()
				return e.PurgeCaches(ctx)
			}
			return nil
		},
		Log: log.With("component", "cluster")})
	if err != nil {
		if n.bus != nil {
			err = errors.Join(err, n.bus.Close())
		}
		return err
	}
	n.members.Store(m)
	if f, ok := n.drv.(drivers.Fencer); ok && cfg.Cluster.Enabled {
		// No write commits once the lease ended by the store's clock: by
		// then the other nodes may have taken this node's slots.
		f.SetFence(m.Until)
	}
	return nil
}

// serves is the engine's Serves in cluster mode: the keys a transaction
// wrote must be of slots the node serves.
func serves(m *membership.Membership) func([]store.KeyRef) error {
	return func(keys []store.KeyRef) error {
		st := m.State()
		for _, k := range keys {
			if err := command.ClusterRefusal(st, cluster.KeySlot(k.Key)); err != nil {
				return err
			}
		}
		return nil
	}
}

// peers returns the bus addresses of the other nodes (none before the
// node joined).
func (n *Node) peers() map[string]string {
	if m := n.members.Load(); m != nil {
		return m.Peers()
	}
	return nil
}

// busHandler hands what other nodes send to this node's clients and
// engine, once it serves.
func (n *Node) busHandler() bus.Handler {
	keyRefs := func(keys []bus.Key) []store.KeyRef {
		out := make([]store.KeyRef, len(keys))
		for i, k := range keys {
			out[i] = store.KeyRef{DB: k.DB, Key: k.Key}
		}
		return out
	}
	return bus.Handler{
		Publish: func(ns uint32, ch, msg []byte) {
			if n.serving.Load() {
				n.net.Broker.Publish(ns, ch, msg)
			}
		},
		PublishShard: func(ns uint32, ch, msg []byte) {
			if n.serving.Load() {
				n.net.Broker.PublishShard(ns, ch, msg)
			}
		},
		Ready: func(keys []bus.Key) {
			if n.serving.Load() {
				n.engine.Poke(keyRefs(keys))
			}
		},
		Invalidate: func(keys []bus.Key, flushed bool) {
			if flushed && n.cfg.Cluster.Enabled && n.serving.Load() {
				// Another node flushed: this node's caches are authoritative
				// and must see the new flush marker now (the GC reloads the
				// markers at each pass too).
				if err := n.engine.FlushMarkers().Reload(n.drv); err != nil {
					n.log.Warn("cluster: could not reload the flush markers", "err", err)
				}
			}
			if n.serving.Load() {
				n.net.Invalidate(nil, keyRefs(keys), flushed)
			}
		},
	}
}

// invalidate is the engine's Invalidate: this node's tracking clients,
// then the other nodes' (the bus).
func (n *Node) invalidate(by actors.Replier, keys []store.KeyRef, flushed bool) {
	n.net.Invalidate(by, keys, flushed)
	if n.bus != nil {
		n.bus.Invalidate(busKeys(keys), flushed)
	}
}

// ready is the engine's Ready: other nodes serve their blocked clients.
func (n *Node) ready(keys []store.KeyRef) {
	if n.bus != nil {
		n.bus.Ready(busKeys(keys))
	}
}

func busKeys(keys []store.KeyRef) []bus.Key {
	out := make([]bus.Key, len(keys))
	for i, k := range keys {
		out[i] = bus.Key{DB: k.DB, Key: k.Key}
	}
	return out
}

// busPublisher carries PUBLISH to the other nodes, and SPUBLISH too
// unless in cluster mode, where a shard channel's subscribers are on the
// node that owns its slot (clients follow MOVED to it).
type busPublisher struct {
	b      *bus.Bus
	shards bool
}

func (p busPublisher) Publish(ns uint32, channel, msg []byte) { p.b.Publish(ns, channel, msg) }

func (p busPublisher) Stats() bus.Stats { return p.b.Stats() }

func (p busPublisher) Links() []bus.Link { return p.b.Links() }

func (p busPublisher) PublishShard(ns uint32, channel, msg []byte) {
	if p.shards {
		p.b.PublishShard(ns, channel, msg)
	}
}

// leave takes the node out of the other nodes' view: its member record
// goes (in cluster mode its slots move at once) and its bus stops.
func (n *Node) leave() error {
	var err error
	if m := n.members.Load(); m != nil {
		err = m.Leave()
	}
	if n.bus != nil {
		err = errors.Join(err, n.bus.Close())
	}
	return err
}

// Shared reports whether other nodes may write the node's store: a TiKV
// cluster unless storage.shared is off (Badger is embedded, never shared).
func Shared(s conf.Storage) bool { return s.Driver == "tikv" && s.Shared }

// lease returns the GC lease of a node on a shared store, nil otherwise.
func lease(shared bool, t conf.TiKV) *gc.Lease {
	if !shared {
		return nil
	}
	var id [8]byte
	_, _ = rand.Read(id[:]) // crypto/rand never fails on Linux
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(id[:]))
	return &gc.Lease{Owner: owner, Term: t.GCLeaseTerm, Now: time.Now}
}

// TiKVOptions returns the TiKV driver's options for s.
func TiKVOptions(s conf.Storage, log *slog.Logger) tikv.Options {
	return tikv.Options{PD: s.TiKV.PD, ConnectTimeout: s.TiKV.ConnectTimeout, RequestTimeout: s.TiKV.RequestTimeout,
		MaxTxnBytes: s.TiKV.MaxTxnMiB << 20, Namespace: []byte(s.TiKV.Namespace), Logger: log.With("component", "tikv")}
}

func openDriver(s conf.Storage, log *slog.Logger) (drivers.Driver, error) {
	switch s.Driver {
	case "badger":
		return badger.Open(badger.Options{Dir: s.Badger.Dir, Durability: s.Badger.Durability,
			ValueLogGC: s.Badger.ValueLogGCInterval, MemTableSize: s.Badger.MemTableMiB << 20,
			ValueLogFileSize: s.Badger.ValueLogFileMiB << 20,
			BlockCacheMiB:    s.Badger.BlockCacheMiB, IndexCacheMiB: s.Badger.IndexCacheMiB,
			BaseTableSize: s.Badger.BaseTableMiB << 20, MinFreeBytes: s.Badger.MinFreeMiB << 20, MaxTxnBytes: s.Badger.MaxTxnMiB << 20,
			Logger: log.With("component", "badger")})
	case "tikv":
		return tikv.Open(TiKVOptions(s, log))
	}
	return nil, fmt.Errorf("storage.driver: unknown driver %q", s.Driver)
}

// backupOf returns drv's backup stream, or nil when it has none.
func backupOf(drv drivers.Driver) func(io.Writer) error {
	if b, ok := drv.(drivers.Backuper); ok {
		return b.Backup
	}
	return nil
}

// restore loads the backup file into the empty store drv (a node started
// from a SAVE's file).
func restore(drv drivers.Driver, file string, log *slog.Logger) error {
	b, ok := drv.(drivers.Backuper)
	if !ok {
		return fmt.Errorf("storage.badger.restore: the driver cannot load backups")
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("storage.badger.restore: %w", err)
	}
	defer f.Close()
	start := time.Now()
	if err := b.Restore(bufio.NewReaderSize(f, 1<<20)); err != nil {
		if errors.Is(err, drivers.ErrNotEmpty) {
			return fmt.Errorf("storage.badger.restore: %s already holds data; restore into an empty storage.badger.dir", file)
		}
		return fmt.Errorf("storage.badger.restore %s: %w", file, err)
	}
	log.Info("backup restored", "file", file, "took", time.Since(start))
	return nil
}

// configParams are the values CONFIG GET reports, under Redis's names.
func configParams(cfg conf.Config) [][2]string {
	// The settings with a file key and a CONFIG name come from the
	// settings table; these are the CONFIG values rekv computes.
	return append(cfg.ConfigValues(), [][2]string{
		{"databases", strconv.Itoa(server.Databases)},
		{"appendonly", "no"},
		{"save", ""},
		{"dbfilename", filepath.Base(cfg.Storage.Badger.BackupPath())},
		{"shutdown-timeout", strconv.Itoa(max(1, int(cfg.Server.ShutdownTimeout/time.Second)))},
		{"loglevel", map[string]string{"debug": "debug", "info": "notice", "warn": "warning", "error": "warning"}[cfg.Log.Level]},
		{"maxmemory", "0"},
		{"maxmemory-clients", strconv.FormatInt(cfg.Memory.Sizing().ClientsBytes, 10)},
		{"client-output-buffer-limit", fmt.Sprintf("normal %d %d 0 slave 268435456 67108864 60 pubsub %d %d 0",
			cfg.Server.OutputBufferLimitNormal, cfg.Server.OutputBufferLimitNormal,
			cfg.Server.OutputBufferLimitPubSub, cfg.Server.OutputBufferLimitPubSub)},
	}...)
}
