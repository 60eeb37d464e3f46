package info

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rekv/rekv/state"
)

// Lines are a section's field/value pairs, in order.
type Lines [][2]string

// Add appends a field.
func (l *Lines) Add(k string, v any) { *l = append(*l, [2]string{k, fmt.Sprint(v)}) }

// ServerFigures are what the server section reports of the server.
type ServerFigures struct {
	Version, RunID, ConfigFile, Driver string
	Port, Hz                           string // as CONFIG GET shows them
	Start                              time.Time
	Shards                             int
}

// Server is the server section.
func Server(f ServerFigures) Lines {
	var out Lines
	now := time.Now()
	uptime := int64(now.Sub(f.Start).Seconds())
	var uts syscall.Utsname
	osName := runtime.GOOS
	if syscall.Uname(&uts) == nil {
		osName = utsString(uts.Sysname[:]) + " " + utsString(uts.Release[:]) + " " + utsString(uts.Machine[:])
	}
	exe, _ := os.Executable()
	out.Add("redis_version", f.Version)
	out.Add("redis_git_sha1", "00000000")
	out.Add("redis_git_dirty", 0)
	out.Add("redis_build_id", f.RunID[:15])
	out.Add("redis_mode", "standalone")
	out.Add("os", osName)
	out.Add("arch_bits", strconv.IntSize)
	out.Add("monotonic_clock", "POSIX clock_gettime")
	out.Add("multiplexing_api", "epoll")
	out.Add("atomicvar_api", "go-sync-atomic")
	out.Add("gcc_version", "0.0.0")
	out.Add("go_version", runtime.Version())
	out.Add("process_id", os.Getpid())
	out.Add("process_supervised", "no")
	out.Add("run_id", f.RunID)
	out.Add("tcp_port", f.Port)
	out.Add("server_time_usec", now.UnixMicro())
	out.Add("uptime_in_seconds", uptime)
	out.Add("uptime_in_days", uptime/86400)
	out.Add("hz", f.Hz)
	out.Add("configured_hz", f.Hz)
	out.Add("lru_clock", now.Unix()&(1<<24-1))
	out.Add("executable", exe)
	out.Add("config_file", f.ConfigFile)
	out.Add("io_threads_active", 0)
	out.Add("rekv_storage_driver", f.Driver)
	out.Add("rekv_shards", f.Shards)
	return out
}

// ClientFigures are what the clients section reports.
type ClientFigures struct {
	Connected, MaxClients int64
	MaxInput, MaxOutput   int // the largest buffers of one client
	Blocked, Tracking     int
}

// Clients is the clients section.
func Clients(f ClientFigures) Lines {
	var out Lines
	out.Add("connected_clients", f.Connected)
	out.Add("cluster_connections", 0)
	out.Add("maxclients", f.MaxClients)
	out.Add("client_recent_max_input_buffer", f.MaxInput)
	out.Add("client_recent_max_output_buffer", f.MaxOutput)
	out.Add("blocked_clients", f.Blocked)
	out.Add("tracking_clients", f.Tracking)
	out.Add("clients_in_timeout_table", 0)
	return out
}

// MemoryFigures are what the memory section reports beyond the Go
// runtime's and the process's own figures.
type MemoryFigures struct {
	StartHeap, MaxMemory uint64
	Policy               string
	ClientBuffers        int
	// LazyfreePending and Lazyfreed are the GC's dead collections
	// waiting and freed (lazyfree's figures).
	LazyfreePending, Lazyfreed string
	// CachedScripts counts the scripts in the script cache (EVAL, SCRIPT
	// LOAD).
	CachedScripts int
}

// Memory is the memory section.
func Memory(f MemoryFigures) Lines {
	var out Lines
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, peak, total := procStatus("VmRSS"), procStatus("VmHWM"), totalMemory()
	used := ms.HeapAlloc
	out.Add("used_memory", used)
	out.Add("used_memory_human", human(used))
	out.Add("used_memory_rss", rss)
	out.Add("used_memory_rss_human", human(rss))
	out.Add("used_memory_peak", peak)
	out.Add("used_memory_peak_human", human(peak))
	if peak > 0 {
		out.Add("used_memory_peak_perc", fmt.Sprintf("%.2f%%", float64(rss)*100/float64(peak)))
	}
	out.Add("used_memory_overhead", ms.Sys-ms.HeapAlloc)
	out.Add("used_memory_startup", f.StartHeap)
	dataset := used - min(used, f.StartHeap)
	out.Add("used_memory_dataset", dataset)
	out.Add("used_memory_dataset_perc", fmt.Sprintf("%.2f%%", ratio(dataset, used)*100))
	resident := ms.HeapSys - ms.HeapReleased
	out.Add("allocator_allocated", ms.HeapAlloc)
	out.Add("allocator_active", ms.HeapInuse)
	out.Add("allocator_resident", resident)
	out.Add("total_system_memory", total)
	out.Add("total_system_memory_human", human(total))
	out.Add("number_of_cached_scripts", f.CachedScripts)
	out.Add("maxmemory", f.MaxMemory)
	out.Add("maxmemory_human", human(f.MaxMemory))
	out.Add("maxmemory_policy", f.Policy)
	if used > 0 {
		out.Add("mem_fragmentation_ratio", fmt.Sprintf("%.2f", float64(rss)/float64(used)))
	}
	out.Add("mem_fragmentation_bytes", int64(rss)-int64(used))
	out.Add("allocator_frag_ratio", fmt.Sprintf("%.2f", ratio(ms.HeapInuse, ms.HeapAlloc)))
	out.Add("allocator_frag_bytes", int64(ms.HeapInuse)-int64(ms.HeapAlloc))
	out.Add("allocator_rss_ratio", fmt.Sprintf("%.2f", ratio(resident, ms.HeapInuse)))
	out.Add("allocator_rss_bytes", int64(resident)-int64(ms.HeapInuse))
	out.Add("rss_overhead_ratio", fmt.Sprintf("%.2f", ratio(rss, resident)))
	out.Add("rss_overhead_bytes", int64(rss)-int64(resident))
	out.Add("mem_not_counted_for_evict", 0)
	out.Add("mem_replication_backlog", 0)
	out.Add("mem_total_replication_buffers", 0)
	out.Add("mem_clients_slaves", 0)
	out.Add("mem_clients_normal", f.ClientBuffers)
	out.Add("mem_cluster_links", 0)
	out.Add("mem_aof_buffer", 0)
	out.Add("active_defrag_running", 0)
	// The GC frees dead collections in the background, as lazyfree.
	out.Add("lazyfree_pending_objects", f.LazyfreePending)
	out.Add("lazyfreed_objects", f.Lazyfreed)
	out.Add("mem_allocator", "go-"+runtime.Version())
	out.Add("go_gc_cycles", ms.NumGC)
	out.Add("go_heap_objects", ms.HeapObjects)
	return out
}

// PersistenceFigures are what the persistence section reports: the
// saves' lines (SAVE/BGSAVE) and the store's state.
type PersistenceFigures struct {
	Saves         [][2]any
	Rewrites      [][2]any // BGREWRITEAOF's aof_* lines (state.Rewriter)
	StorageError  string   // why the store cannot persist writes now ("": it can)
	StorageFailed int64    // times the store was marked failing
}

// Persistence is the persistence section.
func Persistence(f PersistenceFigures) Lines {
	var out Lines
	for _, kv := range append(append([][2]any{{"loading", 0}, {"async_loading", 0}, {"current_cow_peak", 0}, {"current_cow_size", 0},
		{"current_cow_size_age", 0}, {"current_fork_perc", "0.00"}, {"current_save_keys_processed", 0},
		{"current_save_keys_total", 0}}, f.Saves...), [][2]any{{"rdb_last_cow_size", 0},
		{"rdb_last_load_keys_expired", 0}, {"rdb_last_load_keys_loaded", 0}, {"aof_enabled", 0}}...) {
		out.Add(kv[0].(string), kv[1])
	}
	rewrites := f.Rewrites
	if rewrites == nil {
		rewrites = [][2]any{{"aof_rewrite_in_progress", 0}, {"aof_rewrite_scheduled", 0}, {"aof_last_rewrite_time_sec", -1},
			{"aof_current_rewrite_time_sec", -1}, {"aof_last_bgrewrite_status", "ok"}, {"aof_rewrites", 0},
			{"aof_rewrites_consecutive_failures", 0}}
	}
	for _, kv := range append(rewrites, [][2]any{{"aof_last_write_status", "ok"}, {"aof_last_cow_size", 0},
		{"module_fork_in_progress", 0}, {"module_fork_last_cow_size", 0}}...) {
		out.Add(kv[0].(string), kv[1])
	}
	status := "ok"
	if f.StorageError != "" {
		status = "failed"
	}
	out.Add("storage_status", status) // rekv's: can the store persist writes now
	out.Add("storage_failures", f.StorageFailed)
	out.Add("storage_last_error", f.StorageError)
	return out
}

// StatsFigures are what the stats section reports.
type StatsFigures struct {
	Connections, Commands, NetIn, NetOut, Rejected int64
	Ops                                            *Meter
	SyncFull, SyncPartialOK, SyncPartialErr        int64
	Expired                                        string // keys the GC expired
	EvictedClients                                 int64
	EvictedKeys                                    int64
	Hits, Misses                                   int64
	Channels, Patterns                             int
	TrackedKeys, TrackedItems, TrackedPrefixes     int
	Errors                                         map[string]int64
	Reads, Writes                                  int64
	Panics                                         int64
}

// Stats is the stats section.
func Stats(f StatsFigures) Lines {
	var out Lines
	var errTotal int64
	for _, n := range f.Errors {
		errTotal += n
	}
	out.Add("total_connections_received", f.Connections)
	out.Add("total_commands_processed", f.Commands)
	ops, in, outRate := f.Ops.Rates()
	out.Add("instantaneous_ops_per_sec", int64(ops))
	out.Add("instantaneous_input_kbps", fmt.Sprintf("%.2f", in/1024))
	out.Add("instantaneous_output_kbps", fmt.Sprintf("%.2f", outRate/1024))
	out.Add("instantaneous_input_repl_kbps", "0.00")
	out.Add("instantaneous_output_repl_kbps", "0.00")
	out.Add("total_net_input_bytes", f.NetIn)
	out.Add("total_net_output_bytes", f.NetOut)
	out.Add("total_net_repl_input_bytes", 0)
	out.Add("total_net_repl_output_bytes", 0)
	out.Add("rejected_connections", f.Rejected)
	out.Add("sync_full", f.SyncFull)
	out.Add("sync_partial_ok", f.SyncPartialOK)
	out.Add("sync_partial_err", f.SyncPartialErr)
	out.Add("expired_keys", f.Expired)
	out.Add("evicted_keys", f.EvictedKeys)
	out.Add("evicted_clients", f.EvictedClients)
	out.Add("total_eviction_exceeded_time", 0)
	out.Add("current_eviction_exceeded_time", 0)
	out.Add("keyspace_hits", f.Hits)
	out.Add("keyspace_misses", f.Misses)
	out.Add("pubsub_channels", f.Channels)
	out.Add("pubsub_patterns", f.Patterns)
	out.Add("pubsubshard_channels", 0)
	out.Add("latest_fork_usec", 0)
	out.Add("total_forks", 0)
	out.Add("migrate_cached_sockets", 0)
	out.Add("slave_expires_tracked_keys", 0)
	for _, k := range []string{"active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits",
		"active_defrag_key_misses", "total_active_defrag_time", "current_active_defrag_time"} {
		out.Add(k, 0)
	}
	out.Add("tracking_total_keys", f.TrackedKeys)
	out.Add("tracking_total_items", f.TrackedItems)
	out.Add("tracking_total_prefixes", f.TrackedPrefixes)
	out.Add("unexpected_error_replies", 0)
	out.Add("total_error_replies", errTotal)
	out.Add("dump_payload_sanitizations", 0)
	out.Add("total_reads_processed", f.Reads)
	out.Add("total_writes_processed", f.Writes)
	out.Add("io_threaded_reads_processed", 0)
	out.Add("io_threaded_writes_processed", 0)
	out.Add("recovered_panics", f.Panics) // rekv's: commands that panicked and answered an internal error
	return out
}

// CPU is the cpu section: the process's CPU time.
func CPU() Lines {
	var out Lines
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	sec := func(t syscall.Timeval) string { return fmt.Sprintf("%d.%06d", t.Sec, t.Usec) }
	out.Add("used_cpu_sys", sec(ru.Stime))
	out.Add("used_cpu_user", sec(ru.Utime))
	out.Add("used_cpu_sys_children", "0.000000")
	out.Add("used_cpu_user_children", "0.000000")
	out.Add("used_cpu_sys_main_thread", sec(ru.Stime))
	out.Add("used_cpu_user_main_thread", sec(ru.Utime))
	return out
}

// ErrorStats is the errorstats section: replies by error code.
func ErrorStats(errs map[string]int64) Lines {
	var out Lines
	codes := make([]string, 0, len(errs))
	for c := range errs {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		out.Add("errorstat_"+c, "count="+strconv.FormatInt(errs[c], 10))
	}
	return out
}

// CommandStats is the commandstats section.
func CommandStats(cmds *state.Commands) Lines {
	var out Lines
	for _, n := range cmds.Names() {
		c := cmds.Get(n)
		calls, usec := c.Calls.Load(), c.Usec.Load()
		per := 0.0
		if calls > 0 {
			per = float64(usec) / float64(calls)
		}
		out.Add("cmdstat_"+n, fmt.Sprintf("calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=%d,failed_calls=%d",
			calls, usec, per, c.Rejected.Load(), c.Failed.Load()))
	}
	return out
}

// LatencyStats is the latencystats section: each command's latency at
// the percentiles (latency-tracking-info-percentiles, as CONFIG GET
// shows it), estimated from its run-time histogram (state.LatencyBounds),
// interpolating inside the bucket a percentile falls in.
func LatencyStats(cmds *state.Commands, percentiles string) Lines {
	var pcts []float64
	for _, f := range strings.Fields(percentiles) {
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			pcts = append(pcts, v)
		}
	}
	var out Lines
	for _, n := range cmds.Names() {
		if v := cmds.Get(n).Percentiles(pcts); v != "" {
			out.Add("latency_percentiles_usec_"+n, v)
		}
	}
	return out
}

// BusFigures are the bus between nodes sharing a store (rekv's own).
type BusFigures struct {
	Peers                   int
	Unreachable             []string
	Sent, Received, Dropped int64
}

// Cluster is the cluster section; bus is nil without a bus.
func Cluster(enabled bool, bus *BusFigures) Lines {
	var out Lines
	on := 0
	if enabled {
		on = 1
	}
	out.Add("cluster_enabled", on)
	if bus != nil {
		out.Add("cluster_bus_peers", bus.Peers)
		out.Add("cluster_bus_unreachable", strings.Join(bus.Unreachable, ","))
		out.Add("cluster_bus_messages_sent", bus.Sent)
		out.Add("cluster_bus_messages_received", bus.Received)
		out.Add("cluster_bus_messages_dropped", bus.Dropped)
	}
	return out
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

// ratio is a/b, 0 when b is 0.
func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
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
