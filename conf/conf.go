package conf

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"

	"github.com/rekv/rekv/settings"
)

// Config is the whole configuration.
type Config struct {
	Server  Server  `koanf:"server"`
	Storage Storage `koanf:"storage"`
	Actors  Actors  `koanf:"actors"`
	GC      GC      `koanf:"gc"`
	Log     Log     `koanf:"log"`
	Debug   Debug   `koanf:"debug"`
	Metrics Metrics `koanf:"metrics"`
	Runtime Runtime `koanf:"runtime"`
	Memory  Memory  `koanf:"memory"`
	Cluster Cluster `koanf:"cluster"`
}

// Cluster is Redis Cluster mode (package cluster): the nodes on one store
// share the 16,384 hash slots and answer MOVED for the keys of the slots
// other nodes own.
type Cluster struct {
	// Enabled turns cluster mode on (the --cluster flag; Redis's
	// cluster-enabled).
	Enabled bool `koanf:"enabled"`
	// AnnounceIP and AnnouncePort are the address the other nodes give
	// clients for this one (Redis's cluster-announce-ip and -port):
	// default server.bind (when it names one address) and server.port.
	AnnounceIP   string `koanf:"announce_ip"`
	AnnouncePort int    `koanf:"announce_port"`
	// BusPort is where the node listens for the other nodes' messages
	// (Pub/Sub, wake-ups of blocked clients, tracking invalidations:
	// package bus), on server.bind, whenever the store is shared; 0 picks
	// a free port, which the node announces in its member record.
	BusPort int `koanf:"bus_port"`
	// NodeTimeout is the node's lease: a node that has not renewed its
	// membership for this long loses its slots to the others (Redis's
	// cluster-node-timeout). Renewed every fifth of it.
	NodeTimeout time.Duration `koanf:"node_timeout"`
}

// Runtime tunes the Go runtime of the whole process (main applies it;
// a node never changes process-wide settings itself).
type Runtime struct {
	// MemoryLimitMiB is Go's soft memory limit (GOMEMLIMIT) in MiB: as the
	// heap nears it the collector runs more often, so the server's own
	// memory stays near the limit under load spikes instead of growing to
	// twice the live heap. 0 (the default) leaves Go's setting (the
	// GOMEMLIMIT environment variable, else none).
	MemoryLimitMiB int64 `koanf:"memory_limit_mib"`
	// GCPercent is GOGC: the heap growth, in percent of the live heap,
	// that triggers a collection. 0 (the default) leaves Go's setting
	// (GOGC, else 100); -1 turns proportional collection off, leaving
	// only the memory limit.
	GCPercent int `koanf:"gc_percent"`
	// MaxProcs is GOMAXPROCS: how many threads run Go code at once. 0
	// (the default) leaves Go's setting (GOMAXPROCS, else the CPUs the
	// process may use). Fewer than the CPUs leaves them to other
	// processes (a client on the same machine) and makes hand-offs
	// between goroutines cheaper, at the cost of parallel work.
	MaxProcs int `koanf:"max_procs"`
	// IdleReleaseMiB: once the process has allocated this much heap since
	// it last did so and then goes quiet (a second allocating under a
	// sixteenth of it), it collects and returns its free memory to the OS
	// (debug.FreeOSMemory), so a load burst's garbage and heap headroom
	// do not stay resident until Go's next collection, which may be
	// minutes away on an idle server. Also waits for half the live heap
	// to be allocated, so a big heap is not collected more often than
	// Go would. Three follow-ups, two seconds apart while it stays quiet,
	// return what the burst's work let go of after it (node/idle.go). 0
	// disables; default 64.
	IdleReleaseMiB int64 `koanf:"idle_release_mib"`
	// GCFloorMiB: the collector does not run before the heap has reached
	// this many MiB, whatever the live heap: a process with a small live
	// heap that allocates fast (a node on TiKV) otherwise collects many
	// times a second. A live heap of half of it or more is collected as
	// GOGC says (node/gcfloor.go). 0 disables; default 64.
	GCFloorMiB int64 `koanf:"gc_floor_mib"`
}

// Metrics configures the Prometheus endpoint.
type Metrics struct {
	// Addr serves /metrics (Prometheus text format) on host:port; empty
	// (the default) disables it.
	Addr string `koanf:"addr"`
}

// Debug configures diagnostics.
type Debug struct {
	// PprofAddr serves net/http/pprof on this loopback address; empty
	// disables it.
	PprofAddr string `koanf:"pprof_addr"`
}

// Server configures the network front.
type Server struct {
	Bind            string `koanf:"bind"`
	Port            int    `koanf:"port"`
	MaxClients      int    `koanf:"max_clients"`
	ProtoMaxBulkLen int64  `koanf:"proto_max_bulk_len"`
	MaxMultibulkLen int64  `koanf:"max_multibulk_len"`
	MaxInlineLen    int    `koanf:"max_inline_len"`
	Multicore       bool   `koanf:"multicore"`
	// LoopWait is where an idle event loop waits: "epoll", "runtime" or
	// "auto" (runtime on TiKV); see settings' server.loop_wait.
	LoopWait    string `koanf:"loop_wait"`
	RequirePass string `koanf:"requirepass"`
	Timeout     int    `koanf:"timeout"`
	// ShutdownTimeout bounds a graceful stop (SIGTERM, SHUTDOWN): past
	// it the process exits non-zero, saying what may be lost, even if
	// storage hangs. A second signal exits at once.
	ShutdownTimeout time.Duration `koanf:"shutdown_timeout"`
	ProtectedMode   bool          `koanf:"protected_mode"`
	// Unsent output, in bytes, after which a client is disconnected (0: no
	// limit): normal clients and Pub/Sub subscribers, as Redis's
	// client-output-buffer-limit hard limits.
	OutputBufferLimitNormal int `koanf:"output_buffer_limit_normal"`
	OutputBufferLimitPubSub int `koanf:"output_buffer_limit_pubsub"`
	// NotifyKeyspaceEvents is Redis's notify-keyspace-events ("" off).
	NotifyKeyspaceEvents string `koanf:"notify_keyspace_events"`
	// BusyReplyThreshold is Redis's busy-reply-threshold (lua-time-limit),
	// in milliseconds: once a script has run that long, other commands
	// get BUSY until it ends or SCRIPT KILL stops it. 0 never.
	BusyReplyThreshold int `koanf:"busy_reply_threshold"`
	// LuaMaxMemoryMiB bounds the memory one script may take (MiB of heap
	// growth while it runs); past it the script is stopped. 0: no bound.
	LuaMaxMemoryMiB int `koanf:"lua_max_memory_mib"`
	// TLS port and files, as Redis's tls-* parameters (docs/operations.md).
	TLSPort        int    `koanf:"tls_port"`
	TLSCertFile    string `koanf:"tls_cert_file"`
	TLSKeyFile     string `koanf:"tls_key_file"`
	TLSCACertFile  string `koanf:"tls_ca_cert_file"`
	TLSAuthClients string `koanf:"tls_auth_clients"`
	TLSProtocols   string `koanf:"tls_protocols"`
	// ACLFile is Redis's aclfile: users loaded at start (when it exists)
	// and by ACL LOAD, written by ACL SAVE. ACLUsers are users given here
	// instead, as ACL file lines ("user alice on >secret ~app:* +@read");
	// not both.
	ACLFile  string   `koanf:"aclfile"`
	ACLUsers []string `koanf:"acl_users"`
	// Redis holds Redis parameters (CONFIG SET names and values) applied
	// at start, after the settings above: those with no rekv setting of
	// their own (maxmemory, hash-max-listpack-entries...). CONFIG REWRITE
	// writes the ones changed at run time here.
	Redis map[string]string `koanf:"redis"`
}

// Storage selects and configures the driver.
type Storage struct {
	Driver string `koanf:"driver"` // badger | tikv
	// Shared (tikv only) means several rekv nodes serve the same cluster:
	// no per-shard meta cache, flush markers read per transaction, GC
	// under a lease. Set it false only for a single node, to get the cache.
	Shared bool   `koanf:"shared"`
	Badger Badger `koanf:"badger"`
	TiKV   TiKV   `koanf:"tikv"`
}

// TiKV configures the TiKV driver.
type TiKV struct {
	// PD lists PD endpoints (host:port); ["mock://"] runs client-go's
	// in-process mock cluster, for testing only (data lives in memory).
	PD             []string      `koanf:"pd"`
	ConnectTimeout time.Duration `koanf:"connect_timeout"`
	// RequestTimeout bounds each call to the cluster (a read, a commit):
	// a command still waiting for an unreachable store then gets
	// TRYAGAIN instead of waiting out client-go's back-off.
	RequestTimeout time.Duration `koanf:"request_timeout"`
	MaxTxnMiB      int           `koanf:"max_txn_mib"`
	// GCLeaseTerm is how long the GC lease holds between renewals.
	GCLeaseTerm time.Duration `koanf:"gc_lease_term"`
	// Namespace, when set, prefixes every key rekv stores: deployments
	// with different namespaces share one cluster without seeing each
	// other's data. The nodes of one deployment use the same one.
	Namespace string `koanf:"namespace"`
}

// Badger configures the embedded Badger driver.
type Badger struct {
	Dir                string        `koanf:"dir"`
	Durability         string        `koanf:"durability"`
	ValueLogGCInterval time.Duration `koanf:"value_log_gc_interval"`
	MemTableMiB        int64         `koanf:"memtable_mib"`
	BlockCacheMiB      int64         `koanf:"block_cache_mib"`
	// IndexCacheMiB bounds the memory of tables' indexes and bloom
	// filters (0: Badger keeps them all in memory, which grows with the
	// data).
	IndexCacheMiB int64 `koanf:"index_cache_mib"`
	// BaseTableMiB is the size of Badger's smallest tables (0: Badger's 2
	// MiB); its compactions hold several tables being built, each in
	// about twice this.
	BaseTableMiB int64 `koanf:"base_table_mib"`
	// ValueLogFileMiB is the size of each value-log file (values of 4 KiB
	// and more). Badger allocates twice this while a file is being
	// written (its blocks allocated, not sparse, so that a full file
	// system is an error rather than SIGBUS) and trims it when it is full.
	ValueLogFileMiB int64 `koanf:"value_log_file_mib"`
	// MinFreeMiB: writes are refused (MISCONF) while the data directory's
	// file system has less free space than this; they resume when space
	// is freed. It is the headroom Badger's flushes and compactions need.
	MinFreeMiB int64 `koanf:"min_free_mib"`
	// MaxTxnMiB bounds one command's writes (a big transaction: past
	// Badger's own per-transaction limits, a command's writes are kept in
	// memory and committed through a journal, all or nothing).
	MaxTxnMiB int64 `koanf:"max_txn_mib"`
	// BackupFile is where SAVE and BGSAVE write their backup; empty means
	// Dir + ".backup" beside the data directory.
	BackupFile string `koanf:"backup_file"`
	// Restore, when set, is a backup (a SAVE's file) loaded at start into
	// the data directory, which must then hold no data yet.
	Restore string `koanf:"restore"`
}

// BackupPath returns the file SAVE writes: BackupFile, or Dir + ".backup".
func (b Badger) BackupPath() string {
	if b.BackupFile != "" {
		return b.BackupFile
	}
	return filepath.Clean(b.Dir) + ".backup"
}

// Actors configures the shard actors.
type Actors struct {
	// Shards: shard actors, keys spread over them by hash (0: two per
	// CPU Go may use, one on a single CPU, one on a shared store; see
	// ShardCount).
	Shards        int `koanf:"shards"`
	MetaCacheSize int `koanf:"meta_cache_size"`
	// MemberCacheSize: collection members cached in all, split across the
	// shards (0: none; off with the meta cache).
	MemberCacheSize int `koanf:"member_cache_size"`
	// ListCacheMiB: memory for windows of hot lists' elements in all,
	// split across the shards (0: none; off with the meta cache).
	ListCacheMiB int `koanf:"list_cache_mib"`
	ScanCursors  int `koanf:"scan_cursors"`
}

// GC configures the garbage collector (active expiry and reclamation).
type GC struct {
	Interval         time.Duration `koanf:"interval"`
	BatchSize        int           `koanf:"batch_size"`
	MaxKeysPerSecond int           `koanf:"max_keys_per_second"`
	OrphanInterval   time.Duration `koanf:"orphan_interval"`
	OrphanBatch      int           `koanf:"orphan_batch"`
	MeterInterval    time.Duration `koanf:"meter_interval"`
	MeterBatch       int           `koanf:"meter_batch"`
	CompactAfterKeys int64         `koanf:"compact_after_keys"`
}

// Log configures logging.
type Log struct {
	Level  string `koanf:"level"`
	Format string `koanf:"format"`
}

// DefaultShards returns the default number of shards for a process that
// may use cpus CPUs: two per CPU, so that a shard that waits (for its
// lock at a barrier, for a commit) leaves work for the others, but one
// when there is a single CPU. The shards could not run in parallel then,
// and one shard runs every multi-key command without the barrier that
// joins several shards: pinned to one core, MSET -P 1 ran 11-14% faster
// with one shard than with two, SET and INCR -P 16 8-12%, the other
// tests of bench/compare.sh the same within noise.
func DefaultShards(cpus int) int {
	if cpus <= 1 {
		return 1
	}
	return 2 * cpus
}

// SharedShards is the default number of shards on a store shared with
// other nodes (TiKV). There a command waits on network round trips, not
// the CPU: reads run off their shard (actors' snapshot reads), and each
// shard runs one write group at a time, one transaction of a few round
// trips whatever its size. One shard makes the largest groups, so the
// fewest transactions for the store and PD to serve. On the network
// cluster of ../shared/tikv (2 cores), 50 clients, SET / INCR / GET per
// second at -P 1 (2026-11-27): 1 shard 9,231 / 11,078 / 21,053; 2: 8,552
// / 8,264 / 18,963; 4: 6,351 / 5,594 / 15,291; 16: 4,596 / 4,805 / 19,907;
// 25 SET clients beside 25 GET clients: 1 shard 4,744 + 8,985, 16 shards
// 2,098 + 3,791. A slow command holds the node's writes, as one holds
// Redis's.
const SharedShards = 1

// ShardCount is the number of shards to run: Shards when set, else
// SharedShards on a shared store, else DefaultShards of procs, the CPUs
// Go may run on at once (GOMAXPROCS once runtime.max_procs is applied,
// so `max_procs: 1` on a larger machine gets one shard).
func (a Actors) ShardCount(procs int, shared bool) int {
	switch {
	case a.Shards > 0:
		return a.Shards
	case shared:
		return SharedShards
	}
	return DefaultShards(procs)
}

// Default returns the defaults: the settings table's (package settings).
func Default() Config {
	k := koanf.New(".")
	if err := k.Load(confmap.Provider(settings.Defaults(settings.Table()), "."), nil); err != nil {
		panic(err) // the table's defaults are checked by its tests
	}
	var c Config
	if err := k.UnmarshalWithConf("", &c, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		panic(err)
	}
	return c
}

// Validate reports every invalid setting, each naming its key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	// Each value against its row's bounds and values, then what relates
	// settings to each other or has a format of its own.
	values := c.Flatten()
	for _, s := range settings.Table() {
		if s.Key == "" {
			continue
		}
		if why := s.Check(values[s.Key]); why != "" {
			bad(s.Key, "%s", why)
		}
	}
	if c.Runtime.GCPercent == -1 && c.Runtime.MemoryLimitMiB == 0 {
		bad("runtime.gc_percent", "-1 (off) needs runtime.memory_limit_mib, or the heap grows without bound")
	}
	if c.Server.Bind == "" {
		bad("server.bind", "must not be empty")
	}
	if strings.Trim(c.Server.NotifyKeyspaceEvents, "KEg$lshzxetdmnA") != "" {
		bad("server.notify_keyspace_events", "unknown class in %q (classes: K E g $ l s h z x e t d m n A)", c.Server.NotifyKeyspaceEvents)
	}
	if c.Server.TLSPort > 0 && (c.Server.TLSCertFile == "" || c.Server.TLSKeyFile == "") {
		bad("server.tls_port", "needs server.tls_cert_file and server.tls_key_file")
	}
	if c.Server.ACLFile != "" && len(c.Server.ACLUsers) > 0 {
		bad("server.acl_users", "cannot be used with server.aclfile: give users in one place")
	}
	if c.Storage.Driver == "tikv" {
		pd := c.Storage.TiKV.PD
		if len(pd) == 0 {
			bad("storage.tikv.pd", "must list the PD addresses (host:port) for driver tikv")
		}
		for _, a := range pd {
			if a == "mock://" && len(pd) > 1 {
				bad("storage.tikv.pd", "mock:// cannot be mixed with real addresses")
			}
			if a != "mock://" && !strings.Contains(a, ":") {
				bad("storage.tikv.pd", "%q is not host:port", a)
			}
		}
	}
	if strings.HasPrefix(c.Storage.TiKV.Namespace, "\xff") {
		bad("storage.tikv.namespace", "may not start with byte 0xff (TiKV keeps those keys)")
	}
	if c.Storage.Driver == "badger" && c.Storage.Badger.Dir == "" {
		bad("storage.badger.dir", "must not be empty")
	}
	if _, err := ParseMemory(c.Server.Redis["maxmemory"]); err != nil {
		bad("server.redis.maxmemory", "%v", err)
	}
	if a := c.Metrics.Addr; a != "" {
		if _, _, err := net.SplitHostPort(a); err != nil {
			bad("metrics.addr", "must be host:port, got %q", a)
		}
	}
	if a := c.Debug.PprofAddr; a != "" && !strings.HasPrefix(a, "127.0.0.1:") && !strings.HasPrefix(a, "localhost:") {
		bad("debug.pprof_addr", "must be a loopback address (127.0.0.1:port), got %q", a)
	}
	if c.Cluster.Enabled && c.Cluster.AnnounceIP == "" && (strings.ContainsAny(strings.TrimSpace(c.Server.Bind), " ,") || unspecified(c.Server.Bind)) {
		bad("cluster.announce_ip", "needed when server.bind (%q) does not name one address clients can reach", c.Server.Bind)
	}
	return errors.Join(errs...)
}

// unspecified reports whether bind is a wildcard address (0.0.0.0, ::, *).
func unspecified(bind string) bool {
	switch strings.TrimPrefix(strings.TrimSpace(bind), "-") {
	case "0.0.0.0", "::", "*", "[::]":
		return true
	}
	return false
}

// flagKeys maps command-line flags to config keys: switches (a bool, no
// value) and flags with a value, as the settings table gives them.
func flagKeys(table []settings.Setting) (switches, flags map[string]string) {
	switches, flags = map[string]string{}, map[string]string{}
	for name, s := range settings.Flags(table) {
		if s.Type == settings.Bool {
			switches[name] = s.Key
		} else {
			flags[name] = s.Key
		}
	}
	return switches, flags
}

// Flatten returns every setting's value by key: int64 for integers,
// time.Duration, bool, string, []string and map[string]string.
func (c Config) Flatten() map[string]any {
	out := map[string]any{}
	flatten(reflect.ValueOf(c), "", out)
	return out
}

func flatten(v reflect.Value, prefix string, out map[string]any) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key, fv := prefix+f.Tag.Get("koanf"), v.Field(i)
		switch {
		case f.Type == reflect.TypeOf(time.Duration(0)):
			out[key] = time.Duration(fv.Int())
		case f.Type.Kind() == reflect.Struct:
			flatten(fv, key+".", out)
		case fv.CanInt():
			out[key] = fv.Int()
		default:
			out[key] = fv.Interface()
		}
	}
}

// EnvPrefix starts every environment variable that is a setting:
// REKV_SECTION__KEY sets section.key. Such a variable naming no setting is
// an error at start-up, like an unknown key in the YAML file.
const EnvPrefix = "REKV_"

// TestEnvPrefix starts the switches of the project's own tests
// (REKVTEST_TIKV_PD...): outside the settings' namespace, so the server
// never reads them.
const TestEnvPrefix = "REKVTEST_"

// Load builds the configuration from args (without the program name) and
// the environment (os.Environ form). It returns the config file used, if any.
func Load(args, environ []string, usage io.Writer) (Config, string, error) {
	fs := flag.NewFlagSet("rekv", flag.ContinueOnError)
	fs.SetOutput(usage)
	path := fs.String("config", "", "YAML config file")
	table := settings.Table()
	rows := settings.ByKey(table)
	boolFlagKeys, flagKeys := flagKeys(table)
	for name, key := range flagKeys {
		fs.String(name, "", "overrides "+key)
	}
	for name, key := range boolFlagKeys {
		fs.Bool(name, false, "sets "+key)
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, "", err
	}
	k := koanf.New(".")
	if *path != "" {
		if err := k.Load(file.Provider(*path), yaml.Parser()); err != nil {
			return Config{}, "", fmt.Errorf("config file %s: %w", *path, err)
		}
	}
	fromEnv := map[string]string{} // config key -> the variable that set it
	err := k.Load(env.Provider(".", env.Opt{
		Prefix:      EnvPrefix,
		EnvironFunc: func() []string { return environ },
		TransformFunc: func(name, v string) (string, any) {
			key := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, EnvPrefix)), "__", ".")
			fromEnv[key] = name
			return key, listValue(rows, key, v)
		},
	}), nil)
	if err != nil {
		return Config{}, "", err
	}
	set := map[string]any{}
	fs.Visit(func(f *flag.Flag) {
		if key, ok := flagKeys[f.Name]; ok {
			set[key] = listValue(rows, key, f.Value.String())
		}
		if key, ok := boolFlagKeys[f.Name]; ok {
			set[key] = f.Value.String() == "true"
		}
	})
	if err := k.Load(confmap.Provider(set, "."), nil); err != nil {
		return Config{}, "", err
	}
	cfg := Default()
	var errs []error
	known := knownKeys(table)
	for _, key := range k.Keys() {
		switch {
		case isKnown(known, key):
		case fromEnv[key] != "":
			errs = append(errs, fmt.Errorf("%s: unknown setting (every %s* variable is a setting, %sSECTION__KEY; test switches are %s*)",
				fromEnv[key], EnvPrefix, EnvPrefix, TestEnvPrefix))
		default:
			errs = append(errs, fmt.Errorf("%s: unknown key", key))
		}
	}
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		errs = append(errs, err)
	}
	if err := cfg.Validate(); err != nil {
		errs = append(errs, err)
	}
	goMemLimit := slices.ContainsFunc(environ, func(v string) bool { return strings.HasPrefix(v, "GOMEMLIMIT=") })
	cfg.ApplyBudget(MachineMemory(), func(key string) bool {
		return k.Exists(key) || key == "runtime.memory_limit_mib" && goMemLimit
	})
	return cfg, *path, errors.Join(errs...)
}

// listValue splits the comma-separated value of a list setting (rows: the
// settings by key) given as one string (environment, flags); other
// values stay as they are.
func listValue(rows map[string]settings.Setting, key, v string) any {
	if rows[key].Type == settings.List {
		return strings.Split(v, ",")
	}
	return v
}

// isKnown reports whether key is a setting: one of known, or a key of a
// map setting (known holds "section.map." for those).
func isKnown(known map[string]bool, key string) bool {
	if known[key] {
		return true
	}
	for i := strings.LastIndexByte(key, '.'); i > 0; i = strings.LastIndexByte(key[:i], '.') {
		if known[key[:i+1]] {
			return true
		}
	}
	return false
}

// knownKeys returns the settings' keys, with "key." for a map setting
// (any key under it: see isKnown).
func knownKeys(table []settings.Setting) map[string]bool {
	out := map[string]bool{}
	for key, s := range settings.ByKey(table) {
		out[key] = true
		if s.Type == settings.Map {
			out[key+"."] = true
		}
	}
	return out
}

// ConfigValues returns, for each setting CONFIG shows that has a file key
// too, its CONFIG name and its value in CONFIG's form (yes/no, seconds).
func (c Config) ConfigValues() [][2]string {
	values := c.Flatten()
	var out [][2]string
	for _, s := range settings.Config(settings.Table()) {
		if s.Key != "" {
			out = append(out, [2]string{s.Redis, s.ConfigValue(fmt.Sprint(values[s.Key]))})
		}
	}
	return out
}
