package command

import (
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/namespaces"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// Client is the connection a command runs for, as the roles commands use:
// each is nil where the connection has no such role (a script's calls
// have Conn only; a command the GC or a replica applies has none). A
// command uses the role it needs; the roles are small so that what
// implements one implements no stubs.
type Client struct {
	Conn     Connection
	Session  Session
	Auth     Auth
	Subs     Subscriber
	Txn      Transactor
	Tracking Tracker
}

// Connection is a connection's identity, database, protocol and name.
type Connection interface {
	ID() int64
	DB() int
	SetDB(db int)
	Proto() int
	SetProto(p int)
	Name() string
	SetName(name string)
	SetLibName(name string)
	SetLibVer(version string)
	// Info returns the CLIENT INFO / CLIENT LIST line of this client.
	Info() string
	// CloseAfterReply closes the connection once this command's reply is
	// written (QUIT).
	CloseAfterReply()
}

// Session is how and when a connection's replies go out, and its modes.
type Session interface {
	// StartMonitor makes the client receive every command the server runs
	// (MONITOR).
	StartMonitor()
	// DeferReply makes reply this command's reply after d (d <= 0: never,
	// until the client disconnects); the client runs nothing else until
	// then. The command then returns ErrReplyLater (WAIT).
	DeferReply(d time.Duration, reply []byte)
	// ReplyLater returns the function that delivers this command's reply
	// from any goroutine, once; the client runs nothing else until then.
	// The command then returns ErrReplyLater (SAVE).
	ReplyLater() func(reply []byte)
	// AfterEarlier runs f once every command the connection sent before
	// this one has its reply (at once if they have), from any goroutine:
	// their writes are then committed and in the replication stream
	// (WAIT, WAITAOF).
	AfterEarlier(f func())
	// SetReplyMode applies CLIENT REPLY ON, OFF or SKIP.
	SetReplyMode(mode string)
	// Reset brings the connection back to its initial state (RESET).
	Reset()
	// SetNoTouch is CLIENT NO-TOUCH: the client's reads stop (or resume)
	// counting as accesses (OBJECT IDLETIME).
	SetNoTouch(on bool)
	// SetNoEvict is CLIENT NO-EVICT: maxmemory-clients never disconnects
	// the client.
	SetNoEvict(on bool)
	// SetReplConf records a REPLCONF option the client sent (capa, rdb-only,
	// listening-port...), for its SYNC.
	SetReplConf(option, value string)
}

// Auth is who a connection is.
type Auth interface {
	// Authenticated reports whether the client may run every command;
	// SetAuthenticated records a successful AUTH.
	Authenticated() bool
	SetAuthenticated()
	// User is the connection's ACL user; SetUser changes it (AUTH).
	User() string
	SetUser(name string)
}

// Subscriber is a connection's Pub/Sub subscriptions.
type Subscriber interface {
	// Subscriptions returns how many channels and patterns the client is
	// subscribed to (RESP2 clients with some are in subscriber mode).
	Subscriptions() int
	// Subscribe adds a channel (pattern: a pattern) subscription and
	// Unsubscribe removes one; both return the client's subscription count
	// after it. Subscribed returns the client's channels (or patterns) in
	// byte order.
	Subscribe(pattern bool, name []byte) int
	Unsubscribe(pattern bool, name []byte) int
	Subscribed(pattern bool) [][]byte
	// ShardSubscribe, ShardUnsubscribe and ShardSubscribed are the same
	// for shard channels (SSUBSCRIBE), counted apart.
	ShardSubscribe(name []byte) int
	ShardUnsubscribe(name []byte) int
	ShardSubscribed() [][]byte
}

// Transactor is a connection's MULTI/WATCH state.
type Transactor interface {
	// Multi, Discard, Unwatch, Watch and Exec drive the connection's
	// MULTI/WATCH state (Redis's errors for misuse). Watch and Exec hand
	// their work to the engine, which replies: they return ErrReplyLater.
	Multi() error
	Discard() error
	Unwatch()
	Watch(keys [][]byte) error
	Exec() error
}

// Tracker is a connection's client-side caching.
type Tracker interface {
	// Track turns client-side caching on or off (CLIENT TRACKING),
	// checking the options against the client's current mode; Caching
	// is CLIENT CACHING YES or NO for the next command; TrackingInfo
	// describes the client's tracking (CLIENT TRACKINGINFO, GETREDIR).
	Track(o TrackOptions) error
	Caching(yes bool) error
	TrackingInfo() TrackingInfo
}

// TrackOptions are CLIENT TRACKING's arguments.
type TrackOptions struct {
	On                           bool
	Redirect                     int64 // the client invalidations go to
	Redirected                   bool  // REDIRECT was given
	BCast, OptIn, OptOut, NoLoop bool
	Prefixes                     []string
}

// TrackingInfo is CLIENT TRACKINGINFO's reply: the flags ("off", or "on"
// and the modes), the redirect (-1 off, 0 none) and the BCAST prefixes.
type TrackingInfo struct {
	Flags    []string
	Redirect int64
	Prefixes []string
}

// KillFilter selects the clients CLIENT KILL closes; zero fields match
// any client.
type KillFilter struct {
	ID          int64
	Addr, LAddr string
	User, Type  string
	SkipMe      bool
	// Namespace, when set, selects the clients in that namespace.
	Namespace *uint32
	// Match, when set, must also hold for a client to be killed.
	Match func(Subscriber) bool
}

// Server is the server a command runs on, as the roles commands use;
// each is nil where there is none (a command table test runs without a
// server). The roles' methods are safe to call from any goroutine.
type Server struct {
	Clients Clients
	Config  Config
	Node    Node
	Status  Status
	Diag    Diagnostics
	Broker  Broker
	// Namespaces is the store's namespaces (NAMESPACE; AUTH with a
	// token).
	Namespaces Namespaces
}

// Namespaces is the namespaces defined in the store (package
// namespaces): a lookup that misses reads the store again (another node
// may have just added it).
type Namespaces interface {
	Get(name string) (namespaces.Namespace, bool)
	ByToken(token string) (namespaces.Namespace, bool)
	ByID(id uint32) (namespaces.Namespace, bool)
	All() []namespaces.Namespace
	Add(name, token string) (namespaces.Namespace, error)
	Set(name, token string) error
	Del(name string) (namespaces.Namespace, error)
	SetQuota(name string, q namespaces.Quota) error
}

// Clients is the connected clients, as an administrator sees them.
type Clients interface {
	// ClientList returns one CLIENT LIST line per connected client (ns
	// set: per client in that namespace; typ set: per client of that
	// type, normal, master, replica or pubsub, as CLIENT KILL TYPE).
	ClientList(ns *uint32, typ string) []string
	// NamespaceClients returns how many clients are connected in
	// namespace id (to this node).
	NamespaceClients(id uint32) int
	// ClientExists reports whether a client with this id is connected.
	ClientExists(id int64) bool
	// KillClients closes the clients f selects (not self when f.SkipMe;
	// self's connection closes after this reply) and returns how many.
	KillClients(f KillFilter, self Connection) int
	// UnblockClient ends the blocking command of client id (CLIENT
	// UNBLOCK): with its time-out reply, or with asError an error.
	UnblockClient(id int64, asError bool) bool
	// Pause holds clients' commands (only writes with writesOnly) until
	// the given time; Unpause lets them go.
	Pause(until time.Time, writesOnly bool)
	Unpause()
}

// Config is the server's configuration and users.
type Config interface {
	// ConfigGet returns the parameters matching any of the patterns
	// (CONFIG GET), each once, with their values.
	ConfigGet(patterns [][]byte) [][2]string
	// SetConfig sets parameters (CONFIG SET): all of them, or none and
	// an error.
	SetConfig(pairs [][2]string) error
	// ConfigRewrite writes the parameters changed at run time back to the
	// configuration file (CONFIG REWRITE).
	ConfigRewrite() error
	// CheckAuth checks a user and password against requirepass: nil,
	// rerr.ErrWrongPass, or rerr.ErrNoPassword for a bare password when
	// none is configured (user is nil for the one-argument AUTH).
	CheckAuth(user, pass []byte) error
	// ACL returns the users and their permissions.
	ACL() *acl.Store
	// StreamNodeLimits returns stream-node-max-entries and
	// stream-node-max-bytes.
	StreamNodeLimits() (entries, bytes int64)
	// EncodingLimits returns the parameters past which Redis converts a
	// small collection to its general encoding.
	EncodingLimits() EncodingLimits
}

// Node is the node's storage, persistence, replication and lifecycle.
type Node interface {
	// SyncStore makes every committed write durable on disk now
	// (WAITAOF).
	SyncStore() error
	// SetActiveExpire pauses (false) or resumes the collection of
	// expired keys (DEBUG SET-ACTIVE-EXPIRE).
	SetActiveExpire(on bool)
	// SetScriptDebug lets scripts call DEBUG, which Redis flags
	// noscript (DEBUG SET-DISABLE-DENY-SCRIPTS, for tests);
	// ScriptDebug reports it.
	SetScriptDebug(on bool)
	// PauseCron pauses (true) or resumes the node's periodic
	// housekeeping, as Redis's serverCron (DEBUG PAUSE-CRON): the memory
	// sample, the ops meter, maxmemory-clients' periodic check.
	PauseCron(on bool)
	ScriptDebug() bool
	// LastSave returns the unix time of the last save (the start before
	// any); Save runs SAVE, or BGSAVE (background) with SCHEDULE, and
	// returns the status reply.
	LastSave() int64
	Save(background, schedule bool) (string, error)
	// Rewrite starts BGREWRITEAOF (the store's compaction, in the
	// background) and returns its status line.
	Rewrite() (string, error)
	// Shutdown asks the process to stop gracefully (SHUTDOWN); false when
	// nothing can stop it from here.
	Shutdown() bool
	// ReplicaOf makes the node a replica of host:port (REPLICAOF), or a
	// master again when host is "" (REPLICAOF NO ONE); the status line
	// to answer ("OK", "OK Already connected to specified master").
	ReplicaOf(host string, port int) (string, error)
	// SendRDB serves SYNC or PSYNC (h: PSYNC's replication ID, offset
	// and FAILOVER; the connection fills in the rest): the client's connection becomes a replica's
	// link (a full or partial sync, then the stream of writes), or gets
	// the whole store as an RDB file and closes when it asked for the
	// file alone (REPLCONF rdb-only 1, as redis-cli --rdb). It returns
	// ErrReplyLater when it serves.
	SendRDB(client Connection, h ReplHello) error
	// Failover serves FAILOVER: starts handing the master role to a
	// replica (or aborts the hand-over in progress).
	Failover(o FailoverOptions) error
	// Replicate streams a command that changes no data (PUBLISH) to the
	// replicas, if any.
	Replicate(args ...[]byte)
	// WaitReplicas serves WAIT: done gets how many replicas acknowledged
	// the writes made so far, once n did or timeout passed (0: none); at
	// once with now (inside EXEC or a script).
	WaitReplicas(n int, timeout time.Duration, now bool, done func(int))
	// Shards returns how many shards the node runs commands on, and
	// ShardOf the one owning key. Exec runs run, an internal write, in
	// database db on one shard, through the path client commands take
	// (committed, replicated, WATCH and client-side caching told), and
	// returns its error once it committed (DEBUG POPULATE's chunks).
	Shards() int
	ShardOf(key []byte) int
	Exec(shard, db int, spec *Spec, run Runner) error
}

// ReplStatus is the node's replication state, as ROLE and INFO
// replication report it.
type ReplStatus struct {
	// Replica: the node follows MasterHost:MasterPort.
	Replica    bool
	MasterHost string
	MasterPort int
	// State is ROLE's link state: "connect", "connecting", "sync" or
	// "connected"; Up when connected (master_link_status).
	State string
	Up    bool
	// LastIO is when the master last sent anything; DownSince when the
	// link went down (zero: never up).
	LastIO, DownSince time.Time
	// Syncing: a full sync is loading; SyncTotal its RDB's bytes (-1:
	// not known, a diskless transfer) and SyncRead those read so far.
	Syncing             bool
	SyncTotal, SyncRead int64
	// Loading: the received file is being loaded (LOADING refusals).
	Loading bool
	// ReplID and Offset are the replication history this node is at;
	// ReplID2 and SecondOffset the one it followed before a promotion
	// (SecondOffset -1: none).
	ReplID, ReplID2 string
	Offset          int64
	SecondOffset    int64
	// ReadOffset is the offset of the stream read from the master,
	// applied or not (slave_read_repl_offset).
	ReadOffset int64
	// A master's replicas, and its backlog: active once a replica came,
	// holding BacklogLen bytes from offset BacklogFirst.
	Replicas                 []ReplicaInfo
	BacklogActive            bool
	BacklogFirst, BacklogLen int64
	// The syncs served to replicas: full, partial, and partial ones
	// refused (a full one instead).
	SyncFull, SyncPartialOK, SyncPartialErr int64
	// FailoverState is INFO's master_failover_state: "no-failover",
	// "waiting-for-sync" or "failover-in-progress".
	FailoverState string
}

// FailoverOptions are FAILOVER's arguments: the replica to hand over to
// (Host "": the first to catch up), FORCE, ABORT and TIMEOUT (0: none).
type FailoverOptions struct {
	Host    string
	Port    int
	Force   bool
	Abort   bool
	Timeout time.Duration
}

// ReplHello is what a replica said before its SYNC or PSYNC.
type ReplHello struct {
	PSync  bool
	ReplID string
	// Offset is PSYNC's: the first byte of the stream the replica wants
	// (its offset + 1, as Redis counts).
	Offset int64
	EOF    bool // capa eof: the file may come with an end mark
	// Namespaces: a rekv replica (capa rekv-namespaces), which takes
	// every namespace, not only the default one.
	Namespaces bool
	// Failover: PSYNC ... FAILOVER, from this replica's master handing
	// it the master role (FAILOVER).
	Failover bool
	// RDBOnly: the client wants the RDB file alone, then the connection
	// closes (REPLCONF rdb-only 1: redis-cli --rdb); NoKeys and
	// NoFunctions leave those out of it (rdb-filter-only).
	RDBOnly, NoKeys, NoFunctions bool
	Addr                         string // the replica's IP address
	Port                         int    // its listening-port
}

// ReplicaInfo is one replica of this node, as INFO replication lists it:
// its address and listening port, state ("wait_bgsave", "send_bulk",
// "online"), the offset it acknowledged and the seconds since.
type ReplicaInfo struct {
	Addr   string
	Port   int
	State  string
	Offset int64
	Lag    int64
}

// ClusterLink is one connection between this node and another, as
// CLUSTER LINKS lists it: To for one this node opened; Node is the other
// node's id; Queued the bytes waiting to be sent on it, Buffer its send
// buffer.
type ClusterLink struct {
	To             bool
	Node           string
	Created        time.Time
	Queued, Buffer int64
}

// Status is what the server reports of its state, and what it counts.
type Status interface {
	// Stats returns counters for INFO.
	Stats() Stats
	// Cluster returns what this node knows of the cluster (package
	// cluster) and whether its membership is current (renewed within
	// its node timeout); nil when cluster mode is off.
	Cluster() (st *cluster.State, current bool)
	// ClusterLinks returns the node's connections to the other nodes
	// (CLUSTER LINKS); none without a bus.
	ClusterLinks() []ClusterLink
	// Replication returns the node's replication state.
	Replication() ReplStatus
	// WriteRefusal returns why a write may not run now (READONLY on a
	// read-only replica, MISCONF while the store fails, NOREPLICAS under
	// min-replicas-to-write), or nil: a script asks before its first
	// write. OverMaxMemory reports whether used memory is over
	// maxmemory (a script asks as it starts).
	WriteRefusal() error
	OverMaxMemory() bool
	// CommandDone counts a command run inside another (INFO commandstats,
	// the latency monitor): a script's call, EXEC's queued commands, and
	// EXEC itself.
	CommandDone(spec *Spec, took time.Duration, failed bool)
	// CommandRejected counts a command run inside another that was
	// refused before it ran (rejected_calls).
	CommandRejected(spec *Spec)
	// ErrorReplied counts an error reply sent inside another (EXEC's
	// array) in INFO errorstats.
	ErrorReplied(reply []byte)
	// InfoSection returns the lines of an INFO section the server keeps
	// (server, clients, memory, persistence, stats, replication, cpu,
	// modules, errorstats, commandstats, cluster, namespaces); false for
	// others.
	InfoSection(name string) ([][2]string, bool)
	// ResetStats zeroes INFO's counters (CONFIG RESETSTAT).
	ResetStats()
	// Monitor shows a command run in db to the MONITOR clients; source
	// is the client's address, or "lua" for a script's calls.
	Monitor(db int, source string, args [][]byte)
}

// Diagnostics are the latency monitor and the slow log.
type Diagnostics interface {
	// LatencyLatest, LatencyHistory, LatencyReset and LatencyHistogram
	// serve LATENCY LATEST, HISTORY, RESET and HISTOGRAM.
	LatencyLatest() []LatencyEvent
	LatencyHistory(event string) []LatencySample
	LatencyReset(events []string) int
	LatencyHistogram(names []string) []LatencyHistogram
	// Slowlog returns the newest count slow log entries (count < 0: all);
	// SlowlogLen and SlowlogReset count and empty it (SLOWLOG).
	Slowlog(count int) []SlowEntry
	SlowlogLen() int
	SlowlogReset()
}

// Broker is Pub/Sub and keyspace notifications. Channels, patterns and
// shard channels are those of a namespace (ns: the command's, see
// Ctx.Namespace): nothing crosses between namespaces.
type Broker interface {
	// NotifyFlags returns the keyspace notification classes enabled.
	NotifyFlags() NotifyClass
	// Notify publishes a keyspace notification of class for key in db
	// (numbered across namespaces: in db's namespace), if that class is
	// enabled.
	Notify(db int, class NotifyClass, event string, key []byte)
	// Publish delivers msg to the channel's subscribers and to matching
	// patterns' and returns how many received it.
	Publish(ns uint32, channel, msg []byte) int
	// PublishShard delivers msg to the shard channel's subscribers
	// (SPUBLISH); ShardChannels and ShardNumSub are PUBSUB SHARDCHANNELS
	// and SHARDNUMSUB.
	PublishShard(ns uint32, channel, msg []byte) int
	ShardChannels(ns uint32, pattern []byte) []string
	ShardNumSub(ns uint32, channel []byte) int
	// Channels returns the channels with subscribers, matching pattern
	// when it is not nil, in byte order; NumSub a channel's subscriber
	// count; NumPat how many patterns have subscribers.
	Channels(ns uint32, pattern []byte) []string
	NumSub(ns uint32, channel []byte) int
	NumPat(ns uint32) int
	// Receivers returns how many clients PUBLISH to channel would reach
	// now (channel and pattern subscribers).
	Receivers(ns uint32, channel []byte) int
}

// Stats are server-wide counters reported by INFO.
type Stats struct {
	Version          string
	StartUnixMs      int64
	Port             int
	ConnectedClients int
	BlockedClients   int // waiting in BLPOP and friends
	TotalConnections int64
	TotalCommands    int64
	Shards           int
	Driver           string
	ConfigFile       string
	GC               [][2]string // the INFO gc section's lines
}

// Nester runs nested commands (Ctx.Call): the engine's one execution
// path.
type Nester interface {
	Nest(c *Ctx, spec *Spec, args [][]byte, r Runner, client Client, w *resp.Writer) error
}

// Call runs a nested command (a script's redis.call) in this command's
// transaction, through the engine's one execution path, writing its
// reply to w; client is what connection commands see, args the command
// line r was parsed from.
func (c *Ctx) Call(spec *Spec, args [][]byte, r Runner, client Client, w *resp.Writer) error {
	return c.Nester.Nest(c, spec, args, r, client, w)
}

// Effect records what this write did as a command line a replica runs
// instead of the command's own (its effect form: SPOP as SREM of the
// members popped, relative expiries as absolute ones...); several calls
// record several lines. A write that records none is streamed as it
// was sent. Nothing is recorded unless a replication master collects
// effects, so building the arguments costs nothing then: ask Effects.
func (c *Ctx) Effect(args ...[]byte) {
	if c.Tx != nil {
		c.Tx.Repl().AddEffect(args...)
	}
}

// Effects reports whether the command's effects are recorded (Effect).
func (c *Ctx) Effects() bool { return c.Tx != nil && c.Tx.Repl().Collecting() }

// Ctx is what a running command may use. Fields that do not apply where
// the command runs are nil: Tx on the event loop, Client off it.
type Ctx struct {
	W        *resp.Writer
	Tx       *store.Tx
	Client   Client
	Server   *Server
	Registry *Registry
	Log      *slog.Logger
	// Now is the command's time, unix milliseconds.
	Now int64
	// DB is the client's selected database, numbered across namespaces
	// (codec.NamespaceDB): database DB%16 of namespace DB/16 (see
	// Namespace, UserDB).
	DB int
	// Cursors holds SCAN, HSCAN, SSCAN and ZSCAN positions.
	Cursors *store.Cursors
	// Nester runs the nested commands of Call; nil where commands do not
	// nest. NoTouch is the calling client's CLIENT NO-TOUCH, which nested
	// commands inherit. InScript: a script called this command
	// (redis.call), where Redis refuses some options (XREAD's BLOCK).
	Nester   Nester
	NoTouch  bool
	InScript bool
	// OnLoop: the command runs on an event loop, in place of its shard
	// (see ErrNotOnLoop).
	OnLoop bool
	// Holds reports whether the command holds key's shard; nil: every
	// shard.
	Holds func(key []byte) bool
	// User is the client's ACL user when it is restricted (nil: it may
	// run anything), for the commands a script calls; ClientInfo returns
	// the client's CLIENT INFO line then, for ACL LOG (made only on a
	// denial).
	User       *acl.User
	ClientInfo func() string
	// PurgeCaches empties the meta caches of the shards the command holds
	// (FLUSHDB, which holds every shard).
	PurgeCaches func()
	// TrackRead, when set (a script run by a client with CLIENT TRACKING
	// on), is called when the script calls a read-only command: the
	// script's declared keys are tracked then, as Redis 7.0 does (a
	// script that only writes tracks nothing; undeclared keys are never
	// tracked).
	TrackRead func()
	// Stats, when set, collects the commands run inside this one (a
	// script's calls, EXEC's queued commands) for INFO commandstats,
	// reported once the command is done (not per retried attempt).
	Stats *[]CmdStat
	// Waits, when set (a connection command), takes how long the command
	// makes its client wait past its run (DEBUG SLEEP's deferred reply):
	// its time in the slow log and commandstats includes it, as Redis's
	// sleep, which holds the whole server, is timed.
	Waits *time.Duration
	// Failed, when set, is set by a command that failed although its
	// reply is not an error: a script whose reply holds one (an array
	// with an error table), which Redis counts in failed_calls.
	Failed *bool
}

// ClusterMode reports whether the server runs in cluster mode (false
// without a server: a command run by a test harness).
func (c *Ctx) ClusterMode() bool {
	if c.Server.Status == nil {
		return false
	}
	st, _ := c.Server.Status.Cluster()
	return st != nil
}

// Itoa is n in decimal, as a command argument (effects).
func Itoa(n int64) []byte { return strconv.AppendInt(nil, n, 10) }

// ExpiryEffect records a relative or absolute expiry a command set on key
// as PEXPIREAT key at (absolute, so a replica behind does not extend it),
// or DEL key when at has passed (the key is gone).
func (c *Ctx) ExpiryEffect(key []byte, at int64) {
	if at <= c.Now {
		c.Effect([]byte("DEL"), key)
		return
	}
	c.Effect([]byte("PEXPIREAT"), key, Itoa(at))
}

// NoEffect marks the command's writes as nothing a replica repeats (a
// consumer's seen time): unless it records effects, it streams nothing.
func (c *Ctx) NoEffect() {
	if c.Tx != nil {
		c.Tx.Repl().AddEffect()
	}
}

// Namespace returns the namespace the command runs in: that of its
// database (0: the default namespace).
func (c *Ctx) Namespace() uint32 { return NamespaceOf(c.DB) }

// UserDB returns database db (numbered across namespaces) as its
// namespace's clients number it (0-15).
func UserDB(db int) int { return db % store.Databases }

// NamespaceOf returns the namespace of database db (numbered across
// namespaces).
func NamespaceOf(db int) uint32 { return uint32(db / store.Databases) }

// InNamespace returns database db (0-15) of the namespace database cur
// is in, numbered across namespaces: SELECT, SWAPDB, MOVE and COPY name
// their namespace's databases.
func InNamespace(cur, db int) int { return cur - cur%store.Databases + db }

// OwnNamespace returns the namespace whose clients this command's client
// may list and kill: nil for the administrator (the default namespace),
// who sees every client.
func (c *Ctx) OwnNamespace() *uint32 {
	if ns := c.Namespace(); ns != 0 {
		return &ns
	}
	return nil
}

// NamespaceDB returns database db (0-15) of namespace ns, numbered across
// namespaces.
func NamespaceDB(ns uint32, db int) int { return int(codec.NamespaceDB(ns, db)) }

// ErrDebugNotAllowed refuses DEBUG under enable-debug-command.
var ErrDebugNotAllowed = &rerr.Error{Msg: "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", " +
	"you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server."}

// DebugAllowed applies enable-debug-command to the client whose CLIENT
// INFO line info returns (asked only for "local").
func (c *Ctx) DebugAllowed(info func() string) bool {
	mode := "no"
	for _, kv := range c.Server.Config.ConfigGet([][]byte{[]byte("enable-debug-command")}) {
		mode = kv[1]
	}
	switch mode {
	case "yes":
		return true
	case "local":
		if info == nil {
			return false
		}
		for _, f := range strings.Fields(info()) {
			if addr, ok := strings.CutPrefix(f, "addr="); ok {
				host, _, err := net.SplitHostPort(addr)
				ip := net.ParseIP(host)
				return err == nil && ip != nil && ip.IsLoopback()
			}
		}
	}
	return false
}
