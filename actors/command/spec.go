package command

import (
	"strings"

	"github.com/rekv/rekv/actors/command/facts"
	"github.com/rekv/rekv/actors/rerr"
)

// Flags describe where and how a command runs.
type Flags uint32

// Command flags.
const (
	// Write marks commands that may modify the keyspace.
	Write Flags = 1 << iota
	// ReadOnly marks commands that never modify the keyspace.
	ReadOnly
	// Conn commands run on the connection's event loop and touch only the
	// connection's state, never storage.
	Conn
	// Keyspace commands read the whole keyspace (KEYS, SCAN, DBSIZE...) and
	// hold every shard, so they see all earlier writes of their client.
	Keyspace
	// AllShards commands run under a barrier over every shard (FLUSHDB).
	AllShards
	// Fast marks O(1) commands, as COMMAND INFO reports (from Redis's
	// table where it has the command: NewRegistry).
	Fast
	// NoAuth commands run before a client authenticates (AUTH, HELLO,
	// QUIT); every other command then answers NOAUTH.
	NoAuth
	// Blocking commands may wait for keys (BLPOP...); their Runner is a
	// Blocker, and the connection reads no further command until the reply.
	Blocking
	// Transaction commands (MULTI, EXEC, DISCARD, WATCH, UNWATCH) are run
	// by the connection's transaction state, never queued.
	Transaction
	// PubSubContext commands are allowed while a RESP2 client has
	// subscriptions (SUBSCRIBE and friends, PING, QUIT, RESET); every
	// other command is then refused, as in Redis.
	PubSubContext
	// NotQueued commands run at once even inside MULTI (QUIT).
	NotQueued
	// Serial commands make their connection read nothing more until they
	// reply (scripts: one that reaches a key it did not declare runs again
	// holding every shard, and no later command of its client may overtake
	// it).
	Serial
	// NoScript commands may not be called from scripts (Redis's noscript;
	// set from Redis's table by NewRegistry too).
	NoScript
	// AllowBusy commands are served while a script runs past
	// busy-reply-threshold (SCRIPT KILL...); others then get BUSY.
	AllowBusy
	// OwnEvents commands record their keyspace events themselves, from
	// inside their Run, because the event depends on what they did (LPUSH
	// or RPUSH by side); Event is then empty.
	OwnEvents
	// NewFirst commands announce the keys they create ("new") before all
	// their other events: RENAME creates its destination before it
	// removes its source.
	NewFirst
	// NoTouch commands read keys without counting as an access (OBJECT
	// IDLETIME): TYPE, EXISTS, TTL and the like, OBJECT (LOOKUP_NOTOUCH).
	NoTouch
	// DenyOOM commands may grow the data set: refused while used memory
	// is over maxmemory (Redis's denyoom; set from Redis's command table
	// by NewRegistry from Redis's command table, Info).
	DenyOOM
	// Unseen commands change no key a client can see (the GC's removal
	// of flushed data): no client-side caching invalidation.
	Unseen
	// Loading commands are served while a replica loads its master's
	// data (Redis's loading); others then get LOADING. Stale commands are
	// served by a replica whose link is down with
	// replica-serve-stale-data off (Redis's stale); others get
	// MASTERDOWN. Both set from Redis's command table, as DenyOOM.
	Loading
	Stale
	// NoMulti commands may not be queued in a transaction (Redis's
	// no_multi: SYNC, PSYNC, SAVE, SHUTDOWN): refused there, which
	// aborts the EXEC.
	NoMulti
	// RunsQueued commands run the client's queued commands (EXEC): the
	// admission guards judge them by what those do (a queued write makes
	// EXEC a write, as Redis's mstate.cmd_flags).
	RunsQueued
	// Pushes commands answer with push messages (SUBSCRIBE and friends'
	// confirmations, arrays in RESP2): CLIENT REPLY OFF or SKIP does not
	// silence them, as Redis sends pushes whatever the reply mode.
	Pushes
	// SetsReplyMode commands set the connection's reply mode (CLIENT
	// REPLY; RESET turns replies back on) and so decide their own reply;
	// refused, they are silent like any other while replies are off.
	SetsReplyMode
	// NoMonitor commands are not shown to MONITOR clients (Redis's admin
	// commands among them, and MONITOR itself): NotMonitored sets it on a
	// container and its subcommands.
	NoMonitor
	// Touches marks the command that counts as an access to its keys even
	// for a client with CLIENT NO-TOUCH ON (TOUCH).
	Touches
	// SelectsDB marks the command whose first argument is the database the
	// connection selects (SELECT): MONITOR shows it in that database.
	SelectsDB
	// MayReplicate commands are held by CLIENT PAUSE WRITE although they
	// do not write themselves: what they run may (scripts, PUBLISH), as
	// Redis's may_replicate.
	MayReplicate
	// Admin commands are the administrator's: refused to a client in a
	// named namespace (server-wide state: CONFIG, SHUTDOWN, DEBUG,
	// REPLICAOF, NAMESPACE...). Set from Redis's table (admin), but for
	// CLIENT LIST and KILL, which such a client runs on its own
	// namespace's clients.
	Admin
	// ScriptDebug marks the noscript command scripts may call once DEBUG
	// SET-DISABLE-DENY-SCRIPTS allows it (DEBUG itself).
	ScriptDebug
)

// Flag sets most commands use.
const (
	WriteFast = Write | Fast
	ReadFast  = ReadOnly | Fast
)

// KeySpec locates key arguments: indexes First, First+Step, ... up to Last.
// A negative Last counts from the end (-1 is the last argument). First 0
// means the command has no keys.
type KeySpec struct {
	First, Last, Step int
}

// Runner is a parsed command ready to run.
type Runner interface {
	Run(c *Ctx) error
}

// Spec declares one command (or one subcommand).
type Spec struct {
	Name  string // lower case, as in errors ("get"; "setname" for a subcommand)
	Arity int    // like Redis: N exact args (with the name), -N at least N
	Flags Flags
	Keys  KeySpec
	// KeysFunc, when set, locates the keys instead of Keys, for commands
	// whose key count is an argument (SINTERCARD, ZUNION...). It must not
	// fail: malformed arguments yield what it can find, and Parse reports
	// the error.
	KeysFunc func(args [][]byte) []int
	// Parse parses the whole argument list, name included, or returns the
	// syntax error. It never touches storage. Nil for container commands
	// that only dispatch to Subcommands.
	Parse func(args [][]byte) (Runner, error)
	// Subcommands of a container command such as CLIENT; keyed by lower-case
	// name.
	Subcommands []*Spec
	// VariantOf names the command this spec is a variant of, run for the
	// argument lists Matches accepts, where one form of a command runs
	// elsewhere than its others without being a subcommand Redis lists:
	// DEBUG OBJECT key reads a key (family keys), DEBUG's other forms
	// touch no storage (family server). A variant is not a command of
	// its own: it has the command's name and facts (its statistics, ACL
	// rules and COMMAND entry are the command's). NewRegistry attaches it
	// to the command's Variants.
	VariantOf string
	Matches   func(args [][]byte) bool
	Variants  []*Spec
	// Class is the keyspace-notification class of the command's events
	// (its type's class; generic for key commands). See WithClass.
	Class NotifyClass
	// Event is the keyspace event the command raises for each key it wrote
	// ("" for none). A key the command deleted as a side effect (a set
	// emptied by SREM) also gets the generic "del", and an "expire" on a
	// key the command deleted is only a "del", as in Redis.
	Event string
	// KeyEvent, when set, names the event of the i-th key the command
	// wrote instead of Event; gone tells whether the command deleted it
	// (RENAME: rename_from/rename_to; SMOVE: srem/sadd).
	KeyEvent func(i int, gone bool) string
	// EventTTL makes the command also raise the generic "expire" for a
	// key it wrote and left with a TTL (SET EX, SETEX, PSETEX).
	EventTTL bool
	// FlagsFor, when set, returns the flags the admission guards judge a
	// command line by when they depend on its arguments (a script's
	// shebang or function flags, as Redis's getCommandFlags): whether it
	// writes (Write), may grow the data set (DenyOOM) and may run on a
	// stale replica (Stale). False: judge it by its Spec (a script without
	// flags, which its calls are checked for instead). ns is the
	// namespace the command runs in (its functions are its own).
	FlagsFor func(ns uint32, args [][]byte) (Flags, bool)

	// Info is Redis's command-table entry for the command (its flags,
	// ACL categories, tips and key specifications), nil when Redis has
	// none; Doc is its COMMAND DOCS entry. NewRegistry attaches both
	// from package facts.
	Info *facts.Info
	Doc  *facts.Doc

	// ID numbers the spec in its registry, 1 to Registry.Len() (0: a
	// spec no registry holds), for tables indexed by command.
	ID int

	parent *Spec
}

// WithClass sets the notification class of every spec in a table that has
// none, and returns the table.
func WithClass(class NotifyClass, specs []*Spec) []*Spec {
	for _, s := range specs {
		if s.Class == 0 {
			s.Class = class
		}
	}
	return specs
}

// FullName returns "name" or "parent|name", the form Redis uses in errors.
func (s *Spec) FullName() string {
	if s.parent != nil {
		return s.parent.Name + "|" + s.Name
	}
	return s.Name
}

// CheckArity reports the arity error for args, or nil.
func (s *Spec) CheckArity(args [][]byte) error {
	n := len(args) // a subcommand's arity counts the container's name too
	if (s.Arity > 0 && n != s.Arity) || (s.Arity < 0 && n < -s.Arity) {
		return rerr.ErrArity(s.FullName())
	}
	return nil
}

// Writes reports whether the command may modify the keyspace (Write: the
// engine runs it as a write).
func (s *Spec) Writes() bool { return s.Flags&Write != 0 }

// RedisWrite reports whether Redis's table flags the command write: what
// a read-only replica, min-replicas-to-write and MISCONF refuse. Every
// such command Writes; a few that Write are not (PFCOUNT, which may cache
// its estimate; EXEC and the scripts, judged by what they run).
func (s *Spec) RedisWrite() bool { return s.Info.Has("write") }

// Script reports whether the command runs a script or a function (EVAL,
// FCALL and their variants): what it reads is known only as it runs.
func (s *Spec) Script() bool {
	return s.Flags&(NoScript|Serial) == NoScript|Serial && s.Flags&Transaction == 0
}

// KeyFlags returns the key-spec flags of each key argument of args (keys:
// their indexes), as Redis's key specifications give them; nil when
// Redis has no facts for the command.
func (s *Spec) KeyFlags(args [][]byte, keys []int) [][]string { return s.Info.KeyFlags(args, keys) }

// KeyIndexes appends the indexes of the key arguments in args to dst.
func (s *Spec) KeyIndexes(args [][]byte, dst []int) []int {
	if s.KeysFunc != nil {
		return append(dst, s.KeysFunc(args)...)
	}
	if s.Keys.First <= 0 || s.Keys.First >= len(args) {
		return dst
	}
	last := s.Keys.Last
	if last < 0 {
		last += len(args)
	}
	step := s.Keys.Step
	if step <= 0 {
		step = 1
	}
	for i := s.Keys.First; i <= last && i < len(args); i += step {
		dst = append(dst, i)
	}
	return dst
}

// inNamespace reports whether a command Redis's table flags admin is
// one a client in a named namespace runs on its own namespace (Admin).
func inNamespace(name string) bool { return name == "client|list" || name == "client|kill" }

// Registry maps command names to specs. It is built once and then only read.
type Registry struct {
	byName map[string]*Spec
	all    []*Spec
	ids    int // the specs numbered (Spec.ID)
}

// NewRegistry builds a registry from registration tables and attaches to
// every spec its facts (Info, Doc; DenyOOM where Redis says denyoom). It
// panics on a duplicate name or corrupt embedded facts: programming
// errors any test catches.
func NewRegistry(tables ...[]*Spec) *Registry {
	r := &Registry{byName: make(map[string]*Spec)}
	known, err := facts.Load()
	if err != nil {
		panic("command: the embedded command facts are corrupt: " + err.Error())
	}
	var variants []*Spec
	attach := func(s *Spec) {
		r.ids++
		s.ID = r.ids
		s.Info, s.Doc = known.Info(s.FullName()), known.Doc(s.FullName())
		for name, f := range map[string]Flags{"denyoom": DenyOOM, "loading": Loading, "stale": Stale, "no_multi": NoMulti, "noscript": NoScript} {
			if s.Info.Has(name) {
				s.Flags |= f
			}
		}
		if s.Info.Has("admin") && !inNamespace(s.FullName()) {
			s.Flags |= Admin
		}
		if s.Info != nil { // Redis's table says which commands are fast
			s.Flags &^= Fast
			if s.Info.Has("fast") {
				s.Flags |= Fast
			}
		}
	}
	for _, t := range tables {
		for _, s := range t {
			if s.VariantOf != "" { // in any table, before or after its command's
				variants = append(variants, s)
				continue
			}
			if _, dup := r.byName[s.Name]; dup {
				panic("command: duplicate command " + s.Name)
			}
			attach(s)
			for _, sub := range s.Subcommands {
				sub.parent = s
				attach(sub)
			}
			r.byName[s.Name] = s
			r.all = append(r.all, s)
		}
	}
	for _, v := range variants {
		of := r.byName[v.VariantOf]
		if of == nil {
			continue // a registry without the command (tests' subsets)
		}
		if v.Name != of.Name || v.Matches == nil {
			panic("command: a variant misnamed or matching nothing: " + v.VariantOf)
		}
		attach(v)
		of.Variants = append(of.Variants, v)
	}
	return r
}

// All returns every top-level spec in registration order.
func (r *Registry) All() []*Spec { return r.all }

// Len returns the number of specs numbered (Spec.ID): commands,
// subcommands and variants.
func (r *Registry) Len() int { return r.ids }

// Lookup finds a command by name, case-insensitively.
func (r *Registry) Lookup(name []byte) *Spec {
	var buf [32]byte
	if len(name) > len(buf) {
		return r.byName[strings.ToLower(string(name))]
	}
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return r.byName[string(buf[:len(name)])]
}

// LookupFull finds a command by its full name: "get", or "config|get"
// for a subcommand (COMMAND INFO and DOCS accept both).
func (r *Registry) LookupFull(name []byte) *Spec {
	i := strings.IndexByte(string(name), '|')
	if i < 0 {
		return r.Lookup(name)
	}
	parent := r.Lookup(name[:i])
	if parent == nil {
		return nil
	}
	for _, s := range parent.Subcommands {
		if strings.EqualFold(s.Name, string(name[i+1:])) {
			return s
		}
	}
	return nil
}

// Named returns the spec args name, their arity unchecked (nil for an
// unknown command or subcommand): what an arity error is counted against
// (INFO commandstats' rejected_calls, as Redis's c->cmd).
func (r *Registry) Named(args [][]byte) *Spec {
	s := r.Lookup(args[0])
	if s == nil || len(s.Subcommands) == 0 || len(args) < 2 {
		return s
	}
	for _, c := range s.Subcommands {
		if strings.EqualFold(c.Name, string(args[1])) {
			return c
		}
	}
	return nil
}

// Resolve finds the spec that runs args: the command, or for a container
// command its subcommand. It checks arity and returns the Redis error for
// unknown commands and subcommands.
func (r *Registry) Resolve(args [][]byte) (*Spec, error) {
	s := r.Lookup(args[0])
	if s == nil {
		return nil, rerr.ErrUnknownCommand(args)
	}
	if err := s.CheckArity(args); err != nil {
		return nil, err
	}
	for _, v := range s.Variants {
		if v.Matches(args) {
			if err := v.CheckArity(args); err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	if len(s.Subcommands) == 0 || len(args) == 1 && s.Parse != nil {
		return s, nil // a command, or a container that also runs bare (COMMAND)
	}
	sub := strings.ToLower(string(args[1]))
	for _, c := range s.Subcommands {
		if c.Name == sub {
			if err := c.CheckArity(args); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	return nil, rerr.ErrUnknownSubcommand(s.Name, args[1])
}

// NumKeys returns a KeysFunc for commands shaped "cmd [dest] numkeys key
// [key ...]": numkeys is at index at, and dest (if hasDest) at index 1.
func NumKeys(at int, hasDest bool) func(args [][]byte) []int {
	return func(args [][]byte) []int {
		var out []int
		if hasDest && len(args) > 1 {
			out = append(out, 1)
		}
		if at >= len(args) {
			return out
		}
		n, err := Int(args[at])
		if err != nil || n <= 0 {
			return out
		}
		for i := at + 1; i < len(args) && int64(i-at) <= n; i++ {
			out = append(out, i)
		}
		return out
	}
}

// NotMonitored sets NoMonitor on s and its subcommands, and returns s.
func NotMonitored(s *Spec) *Spec {
	s.Flags |= NoMonitor
	for _, sub := range s.Subcommands {
		sub.Flags |= NoMonitor
	}
	return s
}

// HelpSpec returns the HELP subcommand of a container: it answers lines
// (Redis's form: a title, then each subcommand and its explanation).
func HelpSpec(lines ...string) *Spec {
	return &Spec{Name: "help", Arity: 2, Flags: Conn | Fast, Parse: func([][]byte) (Runner, error) { return helpRunner(lines), nil }}
}

type helpRunner []string

func (h helpRunner) Run(c *Ctx) error {
	c.W.SimpleArray(h)
	return nil
}
