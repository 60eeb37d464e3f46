package net

import (
	"crypto/rand"
	"encoding/hex"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/net/info"
	"github.com/rekv/rekv/state"
)

// INFO's sections known to the network layer (the command adds gc and
// keyspace) are assembled by package info from the figures gathered
// here: counters kept here (commands, errors, bytes, connections), the
// clients' buffers, the engine's and the tracking table's counts.

// serverStats are the counters INFO reports.
type serverStats struct {
	cmds          state.Commands
	netIn, netOut atomic.Int64
	reads, writes atomic.Int64
	rejectedConns atomic.Int64
	// storageFailures counts the times the store was marked failing.
	storageFailures atomic.Int64
	runID           string
	startHeap       uint64
	ops             info.Meter
	// evictedClients counts clients disconnected by maxmemory-clients,
	// evictedKeys the keys evicted under maxmemory-policy.
	evictedClients, evictedKeys atomic.Int64
	// lazyfreedBase is the GC's lazyfreed count at the last CONFIG
	// RESETSTAT.
	lazyfreedBase atomic.Int64
}

func newServerStats() serverStats {
	id := make([]byte, 20)
	_, _ = rand.Read(id)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return serverStats{runID: hex.EncodeToString(id), startHeap: ms.HeapAlloc}
}

// sampleOps runs the ops meter until stop is closed.
func (s *Server) sampleOps(stop <-chan struct{}) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	// The heap's live objects: HeapAlloc, INFO's used_memory, read
	// without stopping the world.
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(heap)
	s.rt.usedMemory.Store(int64(heap[0].Value.Uint64()))
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if s.cronPaused.Load() {
				continue // DEBUG PAUSE-CRON 1, as Redis's serverCron
			}
			s.stats.ops.Sample([3]int64{s.totalCmds.Load(), s.stats.netIn.Load(), s.stats.netOut.Load()})
			metrics.Read(heap)
			s.rt.usedMemory.Store(int64(heap[0].Value.Uint64()))
			s.evictClients()
			if s.overMaxmemory() && s.evicting() {
				s.kickEviction()
			}
		}
	}
}

// InfoSection implements command.Server.
func (s *Server) InfoSection(name string) ([][2]string, bool) {
	conf := s.configValue
	switch name {
	case "namespaces":
		return s.namespacesSection(), true
	case "server":
		return info.Server(info.ServerFigures{Version: s.info.Version, RunID: s.stats.runID, ConfigFile: s.info.ConfigFile,
			Driver: s.info.Driver, Port: conf("port"), Hz: conf("hz"), Start: s.start, Shards: s.engine.Shards()}), true
	case "clients":
		f := info.ClientFigures{Connected: s.nclients.Load(), MaxClients: s.rt.maxClients.Load(), Blocked: s.engine.Blocked() + int(s.paused.held.Load())}
		s.clients.Range(func(_, v any) bool {
			cl := v.(*client)
			f.MaxInput = max(f.MaxInput, int(cl.inBuf.Load()))
			f.MaxOutput = max(f.MaxOutput, int(cl.outBuf.Load()))
			return true
		})
		f.Tracking, _, _, _ = s.tracking.Stats()
		return info.Clients(f), true
	case "memory":
		maxmem, _ := strconv.ParseUint(conf("maxmemory"), 10, 64)
		f := info.MemoryFigures{StartHeap: s.stats.startHeap, MaxMemory: maxmem, Policy: conf("maxmemory-policy"),
			LazyfreePending: s.lazyfreePending(), Lazyfreed: s.lazyfreed()}
		if s.opts.CachedScripts != nil {
			f.CachedScripts = s.opts.CachedScripts()
		}
		s.clients.Range(func(_, v any) bool {
			cl := v.(*client)
			f.ClientBuffers += int(cl.inBuf.Load() + cl.outBuf.Load())
			return true
		})
		return info.Memory(f), true
	case "persistence":
		return info.Persistence(info.PersistenceFigures{Saves: s.saver.Info(), Rewrites: s.rewriter.Info(), StorageError: s.StorageFailed(),
			StorageFailed: s.stats.storageFailures.Load()}), true
	case "stats":
		rs := s.Replication()
		hits, misses := s.engine.KeyspaceStats()
		channels, patterns := s.Broker.Totals()
		f := info.StatsFigures{Connections: s.totalConns.Load(), Commands: s.totalCmds.Load(), NetIn: s.stats.netIn.Load(),
			NetOut: s.stats.netOut.Load(), Rejected: s.stats.rejectedConns.Load(), Ops: &s.stats.ops,
			SyncFull: rs.SyncFull, SyncPartialOK: rs.SyncPartialOK, SyncPartialErr: rs.SyncPartialErr,
			Expired: s.gcCounter("gc_keys_expired"), EvictedClients: s.stats.evictedClients.Load(), EvictedKeys: s.stats.evictedKeys.Load(), Hits: hits, Misses: misses,
			Channels: channels, Patterns: patterns, Errors: s.stats.cmds.Errors(),
			Reads: s.stats.reads.Load(), Writes: s.stats.writes.Load(), Panics: s.panics.Load()}
		_, f.TrackedKeys, f.TrackedItems, f.TrackedPrefixes = s.tracking.Stats()
		return info.Stats(f), true
	case "replication":
		var out info.Lines
		s.replicationInfo(out.Add, conf("repl-backlog-size"))
		return out, true
	case "cpu":
		return info.CPU(), true
	case "modules":
		return nil, true
	case "errorstats":
		return info.ErrorStats(s.stats.cmds.Errors()), true
	case "commandstats":
		return info.CommandStats(&s.stats.cmds), true
	case "latencystats":
		return info.LatencyStats(&s.stats.cmds, conf("latency-tracking-info-percentiles")), true
	case "cluster":
		var bus *info.BusFigures
		if s.opts.Bus != nil { // rekv's own: the bus between nodes sharing the store
			st := s.opts.Bus.Stats()
			bus = &info.BusFigures{Peers: st.Peers, Unreachable: st.Unreachable, Sent: st.Sent, Received: st.Received,
				Dropped: st.Dropped}
		}
		return info.Cluster(s.opts.Cluster != nil, bus), true
	}
	return nil, false
}

// lazyfreePending is INFO's lazyfree_pending_objects: the values of more
// than 64 members deleted through this node and not yet reclaimed by the
// GC, or, when more were pending than the engine follows, the GC's last
// count of dead versions if higher.
func (s *Server) lazyfreePending() string {
	backlog := s.gcCounter("gc_backlog_versions")
	if s.engine == nil {
		return backlog
	}
	n, complete, err := s.engine.PendingLazyfree()
	if err != nil {
		return backlog
	}
	if b, _ := strconv.Atoi(backlog); !complete && b > n {
		n = b
	}
	return strconv.Itoa(n)
}

// lazyfreed is INFO's lazyfreed_objects: the GC's reclaimed values big
// enough for Redis to free in the background, since CONFIG RESETSTAT.
func (s *Server) lazyfreed() string {
	return strconv.FormatInt(s.gcLazyfreed()-s.stats.lazyfreedBase.Load(), 10)
}

// gcLazyfreed is the GC's count of them, since the node started.
func (s *Server) gcLazyfreed() int64 {
	n, _ := strconv.ParseInt(s.gcCounter("gc_lazyfreed_objects"), 10, 64)
	return n
}

// gcCounter returns a counter of the INFO gc section (0 without a GC).
func (s *Server) gcCounter(name string) string {
	for _, kv := range s.gcFields() {
		if kv[0] == name {
			return kv[1]
		}
	}
	return "0"
}

// ErrorReplied implements command.Status.
func (s *Server) ErrorReplied(reply []byte) { s.stats.cmds.CountError(reply) }

// CommandRejected implements command.Server.
func (s *Server) CommandRejected(spec *command.Spec) {
	s.stats.cmds.Of(spec).Rejected.Add(1)
}

// CommandDone implements command.Server.
func (s *Server) CommandDone(spec *command.Spec, d time.Duration, failed bool) {
	s.commandDone(spec, d, failed)
}

// commandDone counts a command's run for commandstats.
func (s *Server) commandDone(spec *command.Spec, d time.Duration, failed bool) {
	s.latency.Observe(s.rt.latencyThreshold.Load(), spec.Flags&command.Fast != 0, d)
	s.stats.cmds.Done(spec, d, failed)
}

// LatencyEvent records d as a sample of the latency event name (not a
// command's: the GC's "expire-cycle") under latency-monitor-threshold.
func (s *Server) LatencyEvent(name string, d time.Duration) {
	s.latency.ObserveEvent(s.rt.latencyThreshold.Load(), name, d)
}

// LatencyHistogram implements command.Server (LATENCY HISTOGRAM).
func (vw diagRole) LatencyHistogram(names []string) []command.LatencyHistogram {
	s := vw.s
	return s.stats.cmds.LatencyHistogram(names)
}

// CommandMetrics are one command's counters (/metrics).
type CommandMetrics struct {
	Name                          string
	Calls, Usec, Failed, Rejected int64
	Buckets                       []int64 // per state.LatencyBounds bucket, then slower
}

// Metrics are the network layer's figures for /metrics.
type Metrics struct {
	Commands                       []CommandMetrics
	Errors                         map[string]int64
	Connected, TotalConnections    int64
	RejectedConnections, Blocked   int64
	EvictedKeys                    int64 // INFO evicted_keys
	NetIn, NetOut                  int64
	PubSubChannels, PubSubPatterns int
	// Namespaces are every namespace's figures, the default one first.
	Namespaces []NamespaceFigures
}

// Metrics returns the current figures.
func (s *Server) Metrics() Metrics {
	channels, patterns := s.Broker.Totals()
	m := Metrics{Errors: map[string]int64{}, Connected: s.nclients.Load(), TotalConnections: s.totalConns.Load(),
		RejectedConnections: s.stats.rejectedConns.Load(), EvictedKeys: s.stats.evictedKeys.Load(), NetIn: s.stats.netIn.Load(), NetOut: s.stats.netOut.Load(),
		PubSubChannels: channels, PubSubPatterns: patterns, Namespaces: s.namespaceFigures()}
	if s.engine != nil {
		m.Blocked = int64(s.engine.Blocked()) + s.paused.held.Load()
	}
	for _, name := range s.stats.cmds.Names() {
		c := s.stats.cmds.Get(name)
		cm := CommandMetrics{Name: name, Calls: c.Calls.Load(), Usec: c.Usec.Load(), Failed: c.Failed.Load(),
			Rejected: c.Rejected.Load()}
		for i := range c.Buckets {
			cm.Buckets = append(cm.Buckets, c.Buckets[i].Load())
		}
		m.Commands = append(m.Commands, cm)
	}
	m.Errors = s.stats.cmds.Errors()
	return m
}
