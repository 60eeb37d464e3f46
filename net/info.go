package net

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/state"
)

// INFO's sections known to the network layer (the command adds gc and
// keyspace). Field names are Redis 7.0's. Figures rekv has are real:
// counters kept here (commands, errors, bytes, connections), the Go
// runtime's memory and the process's CPU and resident size. Figures of
// machinery rekv does not have (RDB/AOF, replication, forks, defrag,
// eviction, client-side caching) are the values Redis shows without it.
// latencystats estimates each percentile from the command's run-time
// histogram (state.LatencyBounds), interpolating inside the bucket it falls
// in. Not kept: the Lua memory figures, the expiry cycle's and the reply
// buffers' counters.

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
	ops             opsMeter
	// evictedClients counts clients disconnected by maxmemory-clients.
	evictedClients atomic.Int64
}

// latencyPercentiles returns latency-tracking-info-percentiles.
func (s *Server) latencyPercentiles() []float64 {
	var out []float64
	for _, f := range strings.Fields(s.configValue("latency-tracking-info-percentiles")) {
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

func newServerStats() serverStats {
	id := make([]byte, 20)
	_, _ = rand.Read(id)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return serverStats{runID: hex.EncodeToString(id), startHeap: ms.HeapAlloc}
}

// opsMeter samples the command and byte counts every 100 ms and keeps
// the last 16 rates, as Redis's instantaneous_* figures.
type opsMeter struct {
	mu      sync.Mutex
	last    [3]int64 // commands, bytes in, bytes out
	lastT   time.Time
	samples [16][3]float64
	i       int
}

func (m *opsMeter) sample(now [3]int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := time.Now()
	if !m.lastT.IsZero() {
		if dt := t.Sub(m.lastT).Seconds(); dt > 0 {
			for k := range now {
				m.samples[m.i%len(m.samples)][k] = float64(now[k]-m.last[k]) / dt
			}
			m.i++
		}
	}
	m.last, m.lastT = now, t
}

// rates returns the average commands/s and bytes/s in and out.
func (m *opsMeter) rates() (ops, in, out float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := min(m.i, len(m.samples))
	if n == 0 {
		return 0, 0, 0
	}
	var sum [3]float64
	for _, s := range m.samples[:n] {
		for k := range sum {
			sum[k] += s[k]
		}
	}
	return sum[0] / float64(n), sum[1] / float64(n), sum[2] / float64(n)
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
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
			s.stats.ops.sample([3]int64{s.totalCmds.Load(), s.stats.netIn.Load(), s.stats.netOut.Load()})
			metrics.Read(heap)
			s.rt.usedMemory.Store(int64(heap[0].Value.Uint64()))
			s.evictClients()
		}
	}
}

// human renders bytes as Redis's bytesToHuman.
func human(n uint64) string {
	f := float64(n)
	switch {
	case n < 1024:
		return strconv.FormatUint(n, 10) + "B"
	case n < 1<<20:
		return fmt.Sprintf("%.2fK", f/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.2fM", f/(1<<20))
	case n < 1<<40:
		return fmt.Sprintf("%.2fG", f/(1<<30))
	}
	return fmt.Sprintf("%.2fT", f/(1<<40))
}

// procStatus reads a field of /proc/self/status in bytes (0 if unknown).
func procStatus(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// totalMemory reads MemTotal from /proc/meminfo in bytes (0 if unknown).
func totalMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// InfoSection implements command.Server.
func (s *Server) InfoSection(name string) ([][2]string, bool) {
	var out [][2]string
	add := func(k string, v any) { out = append(out, [2]string{k, fmt.Sprint(v)}) }
	conf := func(name string) string {
		if v := s.conf.get([][]byte{[]byte(name)}, func(p []byte, n string) bool { return string(p) == n }); len(v) > 0 {
			return v[0][1]
		}
		return ""
	}
	now := time.Now()
	uptime := int64(now.Sub(s.start).Seconds())
	switch name {
	case "server":
		var uts syscall.Utsname
		osName := runtime.GOOS
		if syscall.Uname(&uts) == nil {
			osName = utsString(uts.Sysname[:]) + " " + utsString(uts.Release[:]) + " " + utsString(uts.Machine[:])
		}
		exe, _ := os.Executable()
		add("redis_version", s.info.Version)
		add("redis_git_sha1", "00000000")
		add("redis_git_dirty", 0)
		add("redis_build_id", s.stats.runID[:15])
		add("redis_mode", "standalone")
		add("os", osName)
		add("arch_bits", strconv.IntSize)
		add("monotonic_clock", "POSIX clock_gettime")
		add("multiplexing_api", "epoll")
		add("atomicvar_api", "go-sync-atomic")
		add("gcc_version", "0.0.0")
		add("go_version", runtime.Version())
		add("process_id", os.Getpid())
		add("process_supervised", "no")
		add("run_id", s.stats.runID)
		add("tcp_port", conf("port"))
		add("server_time_usec", now.UnixMicro())
		add("uptime_in_seconds", uptime)
		add("uptime_in_days", uptime/86400)
		add("hz", conf("hz"))
		add("configured_hz", conf("hz"))
		add("lru_clock", now.Unix()&(1<<24-1))
		add("executable", exe)
		add("config_file", s.info.ConfigFile)
		add("io_threads_active", 0)
		add("rekv_storage_driver", s.info.Driver)
		add("rekv_shards", s.engine.Shards())
	case "clients":
		var maxIn, maxOut int
		s.clients.Range(func(_, v any) bool {
			cl := v.(*client)
			maxIn = max(maxIn, int(cl.inBuf.Load()))
			maxOut = max(maxOut, int(cl.outBuf.Load()))
			return true
		})
		add("connected_clients", s.nclients.Load())
		add("cluster_connections", 0)
		add("maxclients", s.rt.maxClients.Load())
		add("client_recent_max_input_buffer", maxIn)
		add("client_recent_max_output_buffer", maxOut)
		add("blocked_clients", s.engine.Blocked())
		tc, _, _, _ := s.trackingInfo()
		add("tracking_clients", tc)
		add("clients_in_timeout_table", 0)
	case "memory":
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, peak, total := procStatus("VmRSS"), procStatus("VmHWM"), totalMemory()
		used := ms.HeapAlloc
		maxmem, _ := strconv.ParseUint(conf("maxmemory"), 10, 64)
		add("used_memory", used)
		add("used_memory_human", human(used))
		add("used_memory_rss", rss)
		add("used_memory_rss_human", human(rss))
		add("used_memory_peak", peak)
		add("used_memory_peak_human", human(peak))
		if peak > 0 {
			add("used_memory_peak_perc", fmt.Sprintf("%.2f%%", float64(rss)*100/float64(peak)))
		}
		add("used_memory_overhead", ms.Sys-ms.HeapAlloc)
		add("used_memory_startup", s.stats.startHeap)
		dataset := used - min(used, s.stats.startHeap)
		add("used_memory_dataset", dataset)
		add("used_memory_dataset_perc", fmt.Sprintf("%.2f%%", ratio(dataset, used)*100))
		resident := ms.HeapSys - ms.HeapReleased
		add("allocator_allocated", ms.HeapAlloc)
		add("allocator_active", ms.HeapInuse)
		add("allocator_resident", resident)
		add("total_system_memory", total)
		add("total_system_memory_human", human(total))
		add("maxmemory", maxmem)
		add("maxmemory_human", human(maxmem))
		add("maxmemory_policy", conf("maxmemory-policy"))
		if used > 0 {
			add("mem_fragmentation_ratio", fmt.Sprintf("%.2f", float64(rss)/float64(used)))
		}
		add("mem_fragmentation_bytes", int64(rss)-int64(used))
		add("allocator_frag_ratio", fmt.Sprintf("%.2f", ratio(ms.HeapInuse, ms.HeapAlloc)))
		add("allocator_frag_bytes", int64(ms.HeapInuse)-int64(ms.HeapAlloc))
		add("allocator_rss_ratio", fmt.Sprintf("%.2f", ratio(resident, ms.HeapInuse)))
		add("allocator_rss_bytes", int64(resident)-int64(ms.HeapInuse))
		add("rss_overhead_ratio", fmt.Sprintf("%.2f", ratio(rss, resident)))
		add("rss_overhead_bytes", int64(rss)-int64(resident))
		var clientBuffers int
		s.clients.Range(func(_, v any) bool {
			cl := v.(*client)
			clientBuffers += int(cl.inBuf.Load() + cl.outBuf.Load())
			return true
		})
		add("mem_not_counted_for_evict", 0)
		add("mem_replication_backlog", 0)
		add("mem_total_replication_buffers", 0)
		add("mem_clients_slaves", 0)
		add("mem_clients_normal", clientBuffers)
		add("mem_cluster_links", 0)
		add("mem_aof_buffer", 0)
		add("active_defrag_running", 0)
		// The GC frees dead collections in the background, as lazyfree.
		add("lazyfree_pending_objects", s.gcCounter("gc_backlog_versions"))
		add("lazyfreed_objects", s.gcCounter("gc_versions_reclaimed"))
		add("mem_allocator", "go-"+runtime.Version())
		add("go_gc_cycles", ms.NumGC)
		add("go_heap_objects", ms.HeapObjects)
	case "persistence":
		for _, kv := range append(append([][2]any{{"loading", 0}, {"async_loading", 0}, {"current_cow_peak", 0}, {"current_cow_size", 0},
			{"current_cow_size_age", 0}, {"current_fork_perc", "0.00"}, {"current_save_keys_processed", 0},
			{"current_save_keys_total", 0}}, s.Saver.Info()...), [][2]any{{"rdb_last_cow_size", 0},
			{"rdb_last_load_keys_expired", 0}, {"rdb_last_load_keys_loaded", 0}, {"aof_enabled", 0},
			{"aof_rewrite_in_progress", 0}, {"aof_rewrite_scheduled", 0}, {"aof_last_rewrite_time_sec", -1},
			{"aof_current_rewrite_time_sec", -1}, {"aof_last_bgrewrite_status", "ok"}, {"aof_rewrites", 0},
			{"aof_rewrites_consecutive_failures", 0}, {"aof_last_write_status", "ok"}, {"aof_last_cow_size", 0},
			{"module_fork_in_progress", 0}, {"module_fork_last_cow_size", 0}}...) {
			add(kv[0].(string), kv[1])
		}
		status, cause := "ok", s.StorageFailed()
		if cause != "" {
			status = "failed"
		}
		add("storage_status", status) // rekv's: can the store persist writes now
		add("storage_failures", s.stats.storageFailures.Load())
		add("storage_last_error", cause)
	case "stats":
		total := s.totalCmds.Load()
		var errTotal int64
		for _, n := range s.stats.cmds.Errors() {
			errTotal += n
		}
		channels, patterns := len(s.Channels(nil)), s.NumPat()
		add("total_connections_received", s.totalConns.Load())
		add("total_commands_processed", total)
		ops, in, out := s.stats.ops.rates()
		add("instantaneous_ops_per_sec", int64(ops))
		add("instantaneous_input_kbps", fmt.Sprintf("%.2f", in/1024))
		add("instantaneous_output_kbps", fmt.Sprintf("%.2f", out/1024))
		add("instantaneous_input_repl_kbps", "0.00")
		add("instantaneous_output_repl_kbps", "0.00")
		add("total_net_input_bytes", s.stats.netIn.Load())
		add("total_net_output_bytes", s.stats.netOut.Load())
		add("total_net_repl_input_bytes", 0)
		add("total_net_repl_output_bytes", 0)
		add("rejected_connections", s.stats.rejectedConns.Load())
		rs := s.Replication()
		add("sync_full", rs.SyncFull)
		add("sync_partial_ok", rs.SyncPartialOK)
		add("sync_partial_err", rs.SyncPartialErr)
		add("expired_keys", s.gcCounter("gc_keys_expired"))
		add("evicted_keys", 0)
		add("evicted_clients", s.stats.evictedClients.Load())
		add("total_eviction_exceeded_time", 0)
		add("current_eviction_exceeded_time", 0)
		hits, misses := s.engine.KeyspaceStats()
		add("keyspace_hits", hits)
		add("keyspace_misses", misses)
		add("pubsub_channels", channels)
		add("pubsub_patterns", patterns)
		add("pubsubshard_channels", 0)
		add("latest_fork_usec", 0)
		add("total_forks", 0)
		add("migrate_cached_sockets", 0)
		add("slave_expires_tracked_keys", 0)
		for _, k := range []string{"active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits",
			"active_defrag_key_misses", "total_active_defrag_time", "current_active_defrag_time"} {
			add(k, 0)
		}
		_, tk, ti, tp := s.trackingInfo()
		add("tracking_total_keys", tk)
		add("tracking_total_items", ti)
		add("tracking_total_prefixes", tp)
		add("unexpected_error_replies", 0)
		add("total_error_replies", errTotal)
		add("dump_payload_sanitizations", 0)
		add("total_reads_processed", s.stats.reads.Load())
		add("total_writes_processed", s.stats.writes.Load())
		add("io_threaded_reads_processed", 0)
		add("io_threaded_writes_processed", 0)
		add("recovered_panics", s.panics.Load()) // rekv's: commands that panicked and answered an internal error
	case "replication":
		s.replicationInfo(add, conf("repl-backlog-size"))
	case "cpu":
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		sec := func(t syscall.Timeval) string { return fmt.Sprintf("%d.%06d", t.Sec, t.Usec) }
		add("used_cpu_sys", sec(ru.Stime))
		add("used_cpu_user", sec(ru.Utime))
		add("used_cpu_sys_children", "0.000000")
		add("used_cpu_user_children", "0.000000")
		add("used_cpu_sys_main_thread", sec(ru.Stime))
		add("used_cpu_user_main_thread", sec(ru.Utime))
	case "modules":
	case "errorstats":
		errs := s.stats.cmds.Errors()
		codes := make([]string, 0, len(errs))
		for c := range errs {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			add("errorstat_"+c, "count="+strconv.FormatInt(errs[c], 10))
		}
	case "commandstats":
		for _, n := range s.stats.cmds.Names() {
			c := s.stats.cmds.Get(n)
			calls, usec := c.Calls.Load(), c.Usec.Load()
			per := 0.0
			if calls > 0 {
				per = float64(usec) / float64(calls)
			}
			add("cmdstat_"+n, fmt.Sprintf("calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=%d,failed_calls=%d",
				calls, usec, per, c.Rejected.Load(), c.Failed.Load()))
		}
	case "latencystats":
		pcts := s.latencyPercentiles()
		for _, n := range s.stats.cmds.Names() {
			if v := s.stats.cmds.Get(n).Percentiles(pcts); v != "" {
				add("latency_percentiles_usec_"+n, v)
			}
		}
	case "cluster":
		enabled := 0
		if s.opts.Cluster != nil {
			enabled = 1
		}
		add("cluster_enabled", enabled)
		if s.opts.Bus != nil { // rekv's own: the bus between nodes sharing the store
			st := s.opts.Bus.Stats()
			add("cluster_bus_peers", st.Peers)
			add("cluster_bus_unreachable", strings.Join(st.Unreachable, ","))
			add("cluster_bus_messages_sent", st.Sent)
			add("cluster_bus_messages_received", st.Received)
			add("cluster_bus_messages_dropped", st.Dropped)
		}
	default:
		return nil, false
	}
	return out, true
}

func utsString(b []int8) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c == 0 {
			break
		}
		out = append(out, byte(c))
	}
	return string(out)
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

// CommandDone implements command.Server.
func (s *Server) CommandDone(spec *command.Spec, d time.Duration, failed bool) {
	s.commandDone(spec, d, failed)
}

// commandDone counts a command's run for commandstats.
func (s *Server) commandDone(spec *command.Spec, d time.Duration, failed bool) {
	s.LatencyMonitor.Observe(s.rt.latencyThreshold.Load(), spec.Flags&command.Fast != 0, d)
	s.stats.cmds.Done(spec.FullName(), d, failed)
}

// LatencyHistogram implements command.Server (LATENCY HISTOGRAM).
func (s *Server) LatencyHistogram(names []string) []command.LatencyHistogram {
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
	NetIn, NetOut                  int64
	PubSubChannels, PubSubPatterns int
}

// Metrics returns the current figures.
func (s *Server) Metrics() Metrics {
	m := Metrics{Errors: map[string]int64{}, Connected: s.nclients.Load(), TotalConnections: s.totalConns.Load(),
		RejectedConnections: s.stats.rejectedConns.Load(), NetIn: s.stats.netIn.Load(), NetOut: s.stats.netOut.Load(),
		PubSubChannels: len(s.Channels(nil)), PubSubPatterns: s.NumPat()}
	if s.engine != nil {
		m.Blocked = int64(s.engine.Blocked())
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
