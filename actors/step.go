package actors

import (
	"errors"
	"log/slog"
	"time"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// ErrPanic is what Step returns for a command that panicked: the panic is
// logged once with the command's name and its stack, and the caller replies
// "ERR internal error" (a group commit re-runs its commands alone instead).
var ErrPanic = guard.ErrPanic

// Runtime is what every command execution shares: the server commands see,
// the command table, the log and the SCAN cursors.
type Runtime struct {
	Server   command.Server
	Registry *command.Registry
	Log      *slog.Logger
	Cursors  *store.Cursors
	// Panics counts the panics Step recovered (INFO); nil: not counted.
	Panics *guard.Counter
}

// Call is one parsed command to run in a transaction.
type Call struct {
	Spec   *command.Spec
	Runner command.Runner
	// Args is the command line Runner was parsed from: a write's
	// replication form unless it records its own (command.Ctx.Effect).
	Args [][]byte
	// Client is the connection, for connection commands queued in MULTI
	// (SELECT); nil elsewhere.
	Client command.Client
	// NoBlock makes a blocking command that finds nothing reply as if it
	// timed out instead of returning command.ErrWouldBlock (inside EXEC).
	NoBlock bool
	// Purge empties the meta caches of the shards the command holds.
	Purge func()
	// Holds reports whether a key's shard is held; nil: every shard.
	Holds func(key []byte) bool
	// NoTouch: the client asked that its reads not count as accesses
	// (CLIENT NO-TOUCH ON); TOUCH still does.
	NoTouch bool
	// User and ClientInfo: see command.Ctx.
	User       *acl.User
	ClientInfo func() string
	// Stats collects the commands run inside this one (command.Ctx.Stats).
	Stats *[]command.CmdStat
	// TrackRead, Waits and Failed: see command.Ctx.
	TrackRead func()
	Waits     *time.Duration
	Failed    *bool
	// InScript: a script called it (command.Ctx.InScript).
	InScript bool
	// OnLoop: it runs on an event loop (command.Ctx.OnLoop).
	OnLoop bool
	// DB is a connection command's database (StepConn); a storage
	// command's is its transaction's.
	DB int
	// Ctx, when set, is where Step builds the command's Ctx instead of
	// allocating one: a group's, reused command after command (no
	// command keeps its Ctx past its Run).
	Ctx *command.Ctx
}

// Step runs one command in tx and writes its reply to w. It is the one path
// every command takes — a shard's lone command, each member of a group
// commit, each command queued by EXEC, the table tests' harness — so
// notifications and panic recovery behave the same everywhere. It builds the
// command's Ctx, turns a panic into ErrPanic, and after a successful write
// records the keyspace events the command's Spec declares. It neither
// commits nor writes error replies: callers decide (retry, group fallback,
// an error in EXEC's array).
func (rt *Runtime) Step(tx *store.Tx, w *resp.Writer, call Call) (err error) {
	defer rt.recovered(call, &err)
	tFrom, dFrom, nFrom := len(tx.Journal().Touched()), len(tx.Journal().Deleted()), tx.Journal().NoteCount()
	ctx := rt.ctx(tx, w, call)
	defer tx.Access().NoTouch(tx.Access().NoTouch(call.Spec.Flags&command.NoTouch != 0 || call.NoTouch && call.Spec.Flags&command.Touches == 0))
	fxFrom, wFrom, ownFrom := tx.Repl().EnterCommand(), tx.Repl().Writes(), tx.Repl().OwnEffects()
	defer tx.Repl().LeaveCommand(fxFrom)
	err = call.Runner.Run(ctx)
	if b, ok := call.Runner.(command.Blocker); ok && call.NoBlock && errors.Is(err, command.ErrWouldBlock) {
		w.Reset(w.Proto())
		b.TimedOut(w)
		err = nil
	}
	if err == nil && call.Spec.Flags&command.Write != 0 {
		noteEvents(tx, call.Spec, tFrom, dFrom, nFrom)
	}
	if call.Spec.Flags&command.Write != 0 && tx.Repl().Collecting() && tx.Repl().Writes() > wFrom && tx.Repl().OwnEffects() == ownFrom && call.Args != nil && !runsOthers(call.Spec) {
		tx.Repl().AddEffect(call.Args...) // a write streamed as sent
	}
	return err
}

// StepConn runs a connection command (command.Conn) on its connection's
// event loop: the same Ctx and the same panic guard as Step, without a
// store transaction.
func (rt *Runtime) StepConn(w *resp.Writer, call Call) (err error) {
	defer rt.recovered(call, &err)
	return call.Runner.Run(rt.ctx(nil, w, call))
}

// ctx builds the Ctx a command runs with: in tx for a storage command,
// without one (tx nil) for a connection command, whose time is now and
// whose database is the connection's (call.DB).
func (rt *Runtime) ctx(tx *store.Tx, w *resp.Writer, call Call) *command.Ctx {
	c := call.Ctx
	if c == nil {
		c = new(command.Ctx)
	}
	*c = command.Ctx{W: w, Tx: tx, Client: call.Client, Server: &rt.Server, Registry: rt.Registry, Log: rt.Log,
		Cursors: rt.Cursors, PurgeCaches: call.Purge, Holds: call.Holds, User: call.User, ClientInfo: call.ClientInfo,
		Nester: rt, NoTouch: call.NoTouch, Stats: call.Stats, TrackRead: call.TrackRead, InScript: call.InScript, OnLoop: call.OnLoop,
		Waits: call.Waits, Failed: call.Failed}
	if tx != nil {
		c.Now, c.DB = tx.Now(), tx.DB()
	} else {
		c.Now, c.DB = time.Now().UnixMilli(), call.DB
	}
	return c
}

// recovered, deferred by Step and StepConn, turns a panic of call into
// ErrPanic, logged once with its stack and counted.
func (rt *Runtime) recovered(call Call, err *error) {
	if p := recover(); p != nil {
		guard.Guard{Log: rt.Log, Count: rt.Panics}.Report(p, "command panicked", "cmd", call.Spec.FullName())
		*err = ErrPanic
	}
}

// runsOthers reports whether a command's effects are those of the
// commands it runs (a script's calls, EXEC's queued commands) rather than
// its own command line.
func runsOthers(spec *command.Spec) bool { return spec.Script() || spec.Flags&command.RunsQueued != 0 }

// Nest implements command.Nester: a nested command (a script's
// redis.call) runs through Step in its caller's transaction, inheriting
// its caller's shards, cache purge, ACL user and NO-TOUCH, and never
// blocks.
func (rt *Runtime) Nest(c *command.Ctx, spec *command.Spec, args [][]byte, r command.Runner, client command.Client, w *resp.Writer) error {
	t0 := time.Now()
	err := rt.Step(c.Tx, w, Call{Spec: spec, Args: args, Runner: r, Client: client, NoBlock: true, Purge: c.PurgeCaches, Holds: c.Holds,
		NoTouch: c.NoTouch, User: c.User, ClientInfo: c.ClientInfo, Stats: c.Stats, TrackRead: c.TrackRead, InScript: true})
	addStat(c.Stats, spec, t0, err)
	return err
}

// addStat records a command run inside another in stats (when set).
func addStat(stats *[]command.CmdStat, spec *command.Spec, t0 time.Time, err error) {
	if stats != nil {
		*stats = append(*stats, command.CmdStat{Spec: spec, Took: time.Since(t0), Failed: err != nil})
	}
}

// notifying reports whether transactions should collect keyspace events.
func (rt *Runtime) notifying() bool {
	return rt.Server.Broker != nil && rt.Server.Broker.NotifyFlags() != 0
}
