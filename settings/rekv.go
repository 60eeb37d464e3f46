package settings

import (
	"math"
	"time"
)

// rekvRows are rekv's own settings, in the order the example file
// lists them.
func rekvRows() []Setting {
	return []Setting{
		{Key: "server.bind", Redis: "bind", Type: String, Default: "127.0.0.1", Apply: Live, Flag: "bind",
			Doc: "Address to listen on. Keep loopback unless clients are elsewhere.\n"},
		{Key: "server.port", Redis: "port", Type: Int, Default: "6380", Min: 0, Max: 65535, Bounded: true, Apply: Live, Flag: "port",
			Doc: "Port to listen on; CONFIG SET port moves the listener.\n"},
		{Key: "server.max_clients", Redis: "maxclients", Type: Int, Default: "10000", Min: 1, Max: 4294967295, Bounded: true, Apply: Live,
			Doc: "Connections beyond this get \"-ERR max number of clients reached\".\n"},
		{Key: "server.proto_max_bulk_len", Redis: "proto-max-bulk-len", Type: Int, Config: Mem, Default: "536870912", Min: 1048576, Max: math.MaxInt64, Bounded: true, Apply: Live,
			Doc: "Largest bulk string a request may declare (Redis's proto-max-bulk-len).\n"},
		{Key: "server.max_multibulk_len", Type: Int, Default: "2147483647", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "Most arguments one multibulk request may declare (Redis 7.0: INT_MAX;\n" +
				"ZADD of a million members is two million arguments).\n"},
		{Key: "server.max_inline_len", Type: Int, Default: "65536", Min: 1024, Max: math.MaxInt64, Bounded: true,
			Doc: "Longest inline request or length line, in bytes.\n"},
		{Key: "server.multicore", Type: Bool, Default: "false",
			Doc: "One network event loop (false, the default) or one per core (true).\n" +
				"With one loop, commands are read in the order their bytes arrive, as\n" +
				"in Redis: a SUBSCRIBE sent on one connection is seen by a PUBLISH or\n" +
				"PUBSUB NUMSUB sent after it on another. With one per core, two\n" +
				"connections' commands may be read in either order. Commands run on\n" +
				"the shards' goroutines either way; one loop measured as fast on two\n" +
				"cores (docs/performance.md).\n"},
		{Key: "server.loop_wait", Type: Enum, Default: "auto", Values: []string{"auto", "epoll", "runtime"},
			Doc: "Where an idle network event loop waits for clients. epoll: blocked\n" +
				"in epoll_wait on a thread of its own; runtime: parked in Go's network\n" +
				"poller, so that on one CPU the goroutines that run meanwhile (TiKV's\n" +
				"client) need no thread switch; auto: runtime on TiKV, epoll on\n" +
				"Badger. Go polls the network only when it has nothing else to run,\n" +
				"so next to work that computes without blocking (Badger's compactions,\n" +
				"a busy process on the same core) the runtime wait wakes the loop\n" +
				"later (docs/performance.md).\n"},
		{Key: "server.requirepass", Redis: "requirepass", Type: String, Apply: Live,
			Doc: "When set, clients must AUTH <password> (or AUTH default <password>, or\n" +
				"HELLO 3 AUTH default <password>) first; other commands answer NOAUTH.\n"},
		{Key: "server.timeout", Redis: "timeout", Type: Int, Default: "0", Min: 0, Max: math.MaxInt32, Bounded: true, Hint: "0 disables", Apply: Live,
			Doc: "Close clients idle for this many seconds (0 never), like Redis's timeout.\n"},
		{Key: "server.shutdown_timeout", Type: Duration, Default: "10s", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "How long a graceful stop (SIGTERM, SHUTDOWN) may take before the\n" +
				"process exits anyway, non-zero, saying what may be lost (storage that\n" +
				"hangs); a second signal exits at once.\n"},
		{Key: "server.protected_mode", Type: Bool, Default: "true",
			Doc: "While no password is set, refuse clients that are not on loopback.\n"},
		{Key: "server.output_buffer_limit_normal", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables",
			Doc: "Disconnect a client whose unsent output exceeds this many bytes (0: no\n" +
				"limit), like Redis's client-output-buffer-limit hard limit: normal\n" +
				"clients, and Pub/Sub subscribers (a subscriber that stops reading).\n"},
		{Key: "server.output_buffer_limit_pubsub", Type: Int, Default: "33554432", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables"},
		{Key: "server.notify_keyspace_events", Redis: "notify-keyspace-events", Type: String, Config: Special, Apply: Live,
			Doc: "Keyspace notifications, Redis's notify-keyspace-events: \"\" is off;\n" +
				"e.g. \"KEA\" for everything (K keyspace, E keyevent, g generic, $ string,\n" +
				"l list, s set, h hash, z zset, x expired, A = g$lshzxet). CONFIG SET\n" +
				"notify-keyspace-events changes it at run time.\n"},
		{Key: "server.busy_reply_threshold", Redis: "busy-reply-threshold", Type: Int, Default: "5000", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables", Apply: Live,
			Doc: "Redis's busy-reply-threshold (lua-time-limit), in milliseconds: once a\n" +
				"script has run this long, other commands get BUSY until it ends or\n" +
				"SCRIPT KILL / FUNCTION KILL stops it (0 never). CONFIG SET changes it.\n"},
		{Key: "server.lua_max_memory_mib", Type: Int, Default: "512", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: no bound",
			Doc: "The most a single script may grow the heap, in MiB, before it is stopped\n" +
				"with an error (0: no bound). A process-wide estimate: see README.\n"},
		{Key: "server.tls_port", Redis: "tls-port", Type: Int, Config: String, Default: "0", Min: 0, Max: 65535, Bounded: true, Hint: "0: no TLS", Apply: AtStart, Flag: "tls-port",
			Doc: "TLS port beside the plaintext one (0: none), as Redis's tls-*\n" +
				"parameters; tls_auth_clients: yes (a client certificate is required),\n" +
				"optional or no. See README.\n"},
		{Key: "server.tls_cert_file", Redis: "tls-cert-file", Type: String, Apply: Live, Flag: "tls-cert-file"},
		{Key: "server.tls_key_file", Redis: "tls-key-file", Type: String, Apply: Live, Flag: "tls-key-file"},
		{Key: "server.tls_ca_cert_file", Redis: "tls-ca-cert-file", Type: String, Apply: Live, Flag: "tls-ca-cert-file"},
		{Key: "server.tls_auth_clients", Redis: "tls-auth-clients", Type: Enum, Default: "yes", Values: []string{"no", "yes", "optional"}, Apply: Live},
		{Key: "server.tls_protocols", Redis: "tls-protocols", Type: String, Apply: Live},
		{Key: "server.aclfile", Redis: "aclfile", Type: String, Apply: AtStart,
			Doc: "Redis's aclfile: users loaded at start (when the file exists) and by\n" +
				"ACL LOAD, written by ACL SAVE.\n"},
		{Key: "server.acl_users", Type: List,
			Doc: "Users given here instead of an aclfile, as ACL file lines\n" +
				"(\"user alice on >secret ~app:* +@read\"); not both.\n"},
		{Key: "server.redis", Type: Map, Example: "maxmemory: 1gb\nenable-debug-command: \"local\"",
			Doc: "Redis parameters (CONFIG SET names) applied at start, after the\n" +
				"settings above; CONFIG REWRITE writes the ones changed at run time\n" +
				"here. Immutable ones (enable-debug-command) can only be set here.\n"},
		{Key: "storage.driver", Type: Enum, Default: "badger", Values: []string{"badger", "tikv"}, Flag: "driver",
			Doc: "badger (embedded, default) or tikv (a TiKV cluster shared by any\n" +
				"number of rekv nodes).\n"},
		{Key: "storage.shared", Type: Bool, Default: "true",
			Doc: "tikv only: several rekv nodes serve the same cluster. Then no node\n" +
				"caches key metadata (another node may change it), flush markers are\n" +
				"read in every transaction, WATCH compares per-key write stamps, blocked\n" +
				"clients re-check their keys every 50 ms, and only the node holding the\n" +
				"GC lease collects. Set false only when exactly one node uses the\n" +
				"cluster, to get the per-shard meta cache back.\n"},
		{Key: "storage.badger.dir", Redis: "dir", Type: String, Default: "./data", Apply: Protected, Flag: "dir",
			Doc: "Directory of the embedded store.\n"},
		{Key: "storage.badger.durability", Redis: "appendfsync", Type: Enum, Default: "everysec", Values: []string{"everysec", "always", "no"}, Apply: Live, Flag: "durability",
			Doc: "always: fsync every commit; everysec: fsync once a second (may lose\n" +
				"about the last second on a crash); no: leave it to the OS.\n"},
		{Key: "storage.badger.value_log_gc_interval", Type: Duration, Default: "10m", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables",
			Doc: "How often Badger's value log is garbage-collected (0 disables).\n"},
		{Key: "storage.badger.memtable_mib", Type: Int, Default: "16", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "16",
			Doc: "Sized from the memory budget (memory.budget_mib) unless set here:\n" +
				"memtable size (budget/64, 4 to 16 MiB: 16 MiB memtables write random\n" +
				"keys faster than Badger's 64, a shallower skiplist), block cache\n" +
				"(budget/4), cache of tables' indexes and bloom filters (budget/16;\n" +
				"0 keeps all in memory, which grows with the data), and the size of\n" +
				"the smallest tables (1 MiB under a 512 MiB budget, else Badger's 2:\n" +
				"compactions build several at once). All in MiB.\n"},
		{Key: "storage.badger.block_cache_mib", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "256"},
		{Key: "storage.badger.index_cache_mib", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "64"},
		{Key: "storage.badger.base_table_mib", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "0"},
		{Key: "storage.badger.value_log_file_mib", Type: Int, Default: "64", Min: 0, Max: 1023, Bounded: true, Hint: "0: 64",
			Doc: "Size of each value-log file (values of 4 KiB and more). Files that\n" +
				"Badger writes through memory maps have their blocks allocated up\n" +
				"front, so a full file system refuses writes (MISCONF) instead of\n" +
				"killing the process (SIGBUS): the value log being written holds\n" +
				"twice this, each memtable log twice memtable_mib. 1..1023.\n"},
		{Key: "storage.badger.min_free_mib", Type: Int, Default: "256",
			Doc: "Writes are refused (MISCONF) while the data directory's file system\n" +
				"has less free space than this, and resume when space is freed: the\n" +
				"headroom Badger's flushes and compactions need. On a small volume\n" +
				"this, value_log_file_mib and memtable_mib shrink to fit it (the\n" +
				"start-up log says so; docs/operations.md).\n"},
		{Key: "storage.badger.max_txn_mib", Type: Int, Default: "1024", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "Bound on one command's writes. Past Badger's own per-transaction\n" +
				"limits (about 24,000 small writes with 16 MiB memtables), a command's\n" +
				"further writes are held in memory and committed through a journal:\n" +
				"all or nothing, even across a crash.\n"},
		{Key: "storage.badger.backup_file", Type: String,
			Doc: "Where SAVE / BGSAVE write a consistent backup of the store (empty:\n" +
				"the data directory's path + \".backup\").\n"},
		{Key: "storage.badger.restore", Type: String, Flag: "restore",
			Doc: "A backup to load at start into an empty data directory (a node\n" +
				"started from a SAVE's file); empty: none. Flag: --restore FILE.\n"},
		{Key: "storage.tikv.pd", Type: List, Flag: "pd",
			Doc: "PD endpoints (host:port). [\"mock://\"] runs client-go's in-process\n" +
				"mock cluster instead: for trying the distributed path and for tests\n" +
				"only, its data lives in memory and is gone at exit.\n"},
		{Key: "storage.tikv.connect_timeout", Type: Duration, Default: "10s", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "Give up connecting to PD after this long (client-go alone retries\n" +
				"for minutes).\n"},
		{Key: "storage.tikv.request_timeout", Type: Duration, Default: "15s", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "Each call to the cluster (a timestamp, a read, a commit) gives up\n" +
				"after this long: the command gets TRYAGAIN (a commit that timed out\n" +
				"says it may have been applied).\n"},
		{Key: "storage.tikv.max_txn_mib", Type: Int, Default: "1024", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "Largest transaction, in MiB: the default holds a string of Redis's\n" +
				"proto-max-bulk-len (512 MiB) in one command; client-go buffers a\n" +
				"transaction's writes in memory until it commits. One key plus value\n" +
				"is limited to 6 MiB (under TiKV's 8 MiB raft entry; strings are\n" +
				"chunked, so this bounds one member or element): past either, the\n" +
				"command gets \"ERR value or transaction too large for the storage\".\n"},
		{Key: "storage.tikv.gc_lease_term", Type: Duration, Default: "10s", Min: int64(time.Second), Max: math.MaxInt64, Bounded: true,
			Doc: "How long the GC lease holds; its holder renews it at half term. Node\n" +
				"clocks must agree to well within it.\n"},
		{Key: "storage.tikv.namespace", Type: String,
			Doc: "Prefix of every key rekv stores: deployments with different\n" +
				"namespaces share one cluster without seeing each other's data (every\n" +
				"node of one deployment uses the same). Empty: none.\n"},
		{Key: "actors.shards", Type: Int, Default: "0", Min: 0, Max: 1024, Bounded: true, Hint: "0: two per CPU", Flag: "shards",
			Doc: "Shard actors; keys are spread over them by hash. 0 (the default): 2 x\n" +
				"the CPUs Go may run on (GOMAXPROCS, so after runtime.max_procs), but 1\n" +
				"with a single one (the shards could not run in parallel, and one shard\n" +
				"needs no barrier for multi-key commands); on a shared store (TiKV) 1:\n" +
				"a shard commits one group of writes at a time, a transaction of a few\n" +
				"round trips whatever its size, so one shard makes the largest groups\n" +
				"(reads run off the shards there).\n"},
		{Key: "actors.meta_cache_size", Type: Int, Default: "262144", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "262144",
			Doc: "The three caches below are sized from the memory budget unless set\n" +
				"here (what a 1 GiB budget gives is shown).\n" +
				"Key metadata entries cached in all, split across the shards (with the\n" +
				"values of strings up to 64 bytes): about 170 bytes each; the budget\n" +
				"gives it a sixteenth, at most 262,144 entries (keys past it are read\n" +
				"from Badger's memtables and block cache). 0 disables the cache (as\n" +
				"storage.shared does on tikv).\n"},
		{Key: "actors.member_cache_size", Type: Int, Default: "1048576", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "610080",
			Doc: "Collection members (hash fields, set and zset members, list elements)\n" +
				"cached in all, split across the shards, with their values up to 64\n" +
				"bytes: whether a member exists and its value come without a read of\n" +
				"the store (HSET, SADD, ZADD, RPOP, HGET...). About 110 bytes each\n" +
				"with short values; the budget gives it a sixteenth. 0 disables it;\n" +
				"it is off whenever the meta cache is.\n"},
		{Key: "actors.list_cache_mib", Type: Int, Default: "64", Min: 0, Max: math.MaxInt64, Bounded: true, Sized: true, Example: "32",
			Doc: "Memory (MiB, in all, split across the shards) for windows of hot\n" +
				"lists' elements held in order: pops, LINDEX and LRANGE over a window\n" +
				"read nothing from the store. About 24 bytes per element beyond its\n" +
				"value; the budget gives it a thirty-second. 0 disables it; it is off\n" +
				"whenever the meta cache is.\n"},
		{Key: "actors.scan_cursors", Type: Int, Default: "16384", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "SCAN cursors remembered; a cursor evicted from this table ends its scan.\n"},
		{Key: "gc.interval", Type: Duration, Default: "100ms", Min: int64(time.Millisecond), Max: math.MaxInt64, Bounded: true,
			Doc: "The garbage collector expires keys whose TTL passed (through their\n" +
				"shard) and deletes the members of dead collection versions.\n" +
				"Time between passes when there is no backlog; a pass that found a\n" +
				"full batch of work is followed by the next at once (paced to\n" +
				"max_keys_per_second while clients send commands).\n"},
		{Key: "gc.batch_size", Type: Int, Default: "1000", Min: 1, Max: math.MaxInt64, Bounded: true,
			Doc: "TTL entries and garbage entries read per pass.\n"},
		{Key: "gc.max_keys_per_second", Type: Int, Default: "200000", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: no cap",
			Doc: "Cap on keys expired plus members deleted per second while clients send\n" +
				"commands, so that their latency stays close to idle (0: no cap); while\n" +
				"none do, the GC runs as fast as the store allows.\n"},
		{Key: "gc.orphan_interval", Type: Duration, Default: "1s", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables",
			Doc: "A slow sweep over stored members finds dead versions that lost their\n" +
				"garbage entry (a crash, a bug) and queues them: one step per interval\n" +
				"(0 disables), checking this many collection versions per step.\n"},
		{Key: "gc.orphan_batch", Type: Int, Default: "1000", Min: 1, Max: math.MaxInt64, Bounded: true},
		{Key: "gc.meter_interval", Type: Duration, Default: "10s", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 disables",
			Doc: "The meter walks the named namespaces' keys and stores each one's live\n" +
				"keys and estimated bytes (INFO namespaces, /metrics, the max-keys and\n" +
				"max-bytes quotas): a new walk starts this long after the last ended\n" +
				"(0 disables it), reading at most meter_batch keys per step.\n"},
		{Key: "gc.meter_batch", Type: Int, Default: "10000", Min: 1, Max: math.MaxInt64, Bounded: true},
		{Key: "gc.compact_after_keys", Type: Int, Default: "1000000", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0 never compacts",
			Doc: "Once this many keys were deleted and the backlog is empty, ask Badger to\n" +
				"compact so the disk space comes back (0: never; Badger otherwise keeps\n" +
				"deleted data until its own compactions reach it).\n"},
		{Key: "log.level", Type: Enum, Default: "info", Values: []string{"debug", "info", "warn", "error"}, Flag: "log-level",
			Doc: "debug, info, warn or error.\n"},
		{Key: "log.format", Type: Enum, Default: "text", Values: []string{"text", "json"},
			Doc: "text or json.\n"},
		{Key: "debug.pprof_addr", Type: String, Flag: "pprof",
			Doc: "Serve net/http/pprof here (loopback only), e.g. 127.0.0.1:6060; empty\n" +
				"disables it.\n"},
		{Key: "metrics.addr", Type: String, Flag: "metrics",
			Doc: "Serve Prometheus metrics at http://<addr>/metrics, e.g. 127.0.0.1:9121;\n" +
				"empty (the default) disables it.\n"},
		{Key: "runtime.memory_limit_mib", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: Go's default", Sized: true, Example: "768",
			Doc: "Go's soft memory limit (GOMEMLIMIT) in MiB for the whole process: the\n" +
				"collector works harder as the heap nears it, so load spikes (many\n" +
				"clients sending big values) do not double the heap. Unless set here\n" +
				"(or by the GOMEMLIMIT environment variable), 3/4 of the memory\n" +
				"budget.\n"},
		{Key: "runtime.gc_percent", Type: Int, Default: "0", Min: -1, Max: math.MaxInt64, Bounded: true, Hint: "-1: off, 0: Go's default",
			Doc: "GOGC: heap growth in percent of the live heap that triggers a\n" +
				"collection; 0 leaves Go's setting (GOGC, else 100); -1 collects only at\n" +
				"the memory limit (needs memory_limit_mib).\n"},
		{Key: "runtime.max_procs", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: Go's default",
			Doc: "GOMAXPROCS: threads running Go code at once; 0 leaves Go's setting\n" +
				"(GOMAXPROCS, else the CPUs the process may use). On a small machine\n" +
				"shared with the clients (2 cores, one taken by redis-benchmark), 1\n" +
				"made -P 1 requests 15-45% faster but -P 16 collection writes 30-45%\n" +
				"slower (README, performance).\n"},
		{Key: "runtime.idle_release_mib", Type: Int, Default: "64", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: off",
			Doc: "Once the process has allocated this many MiB of heap since it last\n" +
				"did so and then goes quiet (a second allocating under a sixteenth of\n" +
				"it), it collects and returns its free memory to the OS: a load\n" +
				"burst's garbage and Go's heap headroom do not stay resident until the\n" +
				"next collection, which on an idle server may be minutes away. It also\n" +
				"waits for half the live heap to be allocated, so a big heap is not\n" +
				"collected more often than Go would, and follows up three times, two\n" +
				"seconds apart, while the process stays quiet: memory let go of after\n" +
				"the burst (Badger's pooled compaction buffers) is returned too. A\n" +
				"live heap of 16 times this or more gets no follow-ups (each is a full\n" +
				"collection). 0 disables.\n"},
		{Key: "runtime.gc_floor_mib", Type: Int, Default: "64", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: off",
			Doc: "The collector does not run before the heap has reached this many MiB,\n" +
				"whatever the live heap: the GC percentage is raised while the live\n" +
				"heap is small. A node on TiKV keeps little (about 13 MB) and allocates\n" +
				"4.5 KB a GET in the store's client, and collected 40 times every\n" +
				"100,000 GETs at GOGC 100 (10% of its CPU). A live heap of half of it\n" +
				"or more (a Badger node's caches) is collected as runtime.gc_percent\n" +
				"says. The memory limit still applies. 0 disables.\n"},
		{Key: "memory.budget_mib", Type: Int, Default: "0", Min: 0, Max: math.MaxInt64, Bounded: true, Hint: "0: maxmemory, else a quarter of the machine",
			Doc: "The one budget, in MiB, every part of rekv that grows is sized from:\n" +
				"Go's heap limit (3/4), Badger's block cache (1/4), index cache\n" +
				"(1/16) and memtables, the meta (1/16), member (1/16) and list (1/32)\n" +
				"caches, and clients (maxmemory-clients 1/8: past it the biggest client\n" +
				"is disconnected; each client's pipeline and unread replies 1/64, past\n" +
				"which rekv stops reading it until it catches up). A setting given\n" +
				"explicitly keeps its value. 0: Redis's maxmemory when set\n" +
				"(server.redis.maxmemory), else a quarter of the memory the process may\n" +
				"use (its memory cgroup's limit, or the machine's RAM), at least 256.\n" +
				"See docs/operations.md, memory.\n"},
		{Key: "cluster.enabled", Type: Bool, Default: "false", Flag: "cluster",
			Doc: "Redis Cluster mode (also --cluster): the nodes on one TiKV cluster\n" +
				"share the 16,384 hash slots; each answers MOVED for the keys of slots\n" +
				"another node owns, so cluster clients (go-redis ClusterClient, ioredis\n" +
				"Cluster, redis-cli -c) spread their commands over the nodes. Nodes\n" +
				"join and leave by themselves (docs/cluster.md).\n"},
		{Key: "cluster.announce_ip", Type: String,
			Doc: "The address the other nodes give clients for this one (Redis's\n" +
				"cluster-announce-ip and -port): default server.bind (when it names\n" +
				"one address) and server.port.\n"},
		{Key: "cluster.announce_port", Type: Int, Default: "0", Min: 0, Max: 65535, Bounded: true, Hint: "0: server.port"},
		{Key: "cluster.bus_port", Type: Int, Default: "0", Min: 0, Max: 65535, Bounded: true, Hint: "0: any free port",
			Doc: "Where the node listens for the other nodes' messages (Pub/Sub,\n" +
				"keyspace notifications, wake-ups of blocked clients, tracking\n" +
				"invalidations), on server.bind. The bus runs whenever several nodes\n" +
				"share a TiKV cluster, in cluster mode or not; 0 picks a free port,\n" +
				"which the node announces to the others through the store.\n"},
		{Key: "cluster.node_timeout", Type: Duration, Default: "5s", Min: int64(100 * time.Millisecond), Max: math.MaxInt64, Bounded: true,
			Doc: "A node that has not renewed its membership for this long loses its\n" +
				"slots to the others (Redis's cluster-node-timeout). Renewed every\n" +
				"fifth of it.\n"},
	}
}
