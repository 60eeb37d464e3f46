package repl

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/namespaces"
	"github.com/rekv/rekv/resp"
)

// txPart is the commands of a transaction queued in one database.
type txPart struct {
	db    int
	queue []actors.Queued
}

// maxInFlight bounds the master's commands handed to the engine and not
// yet answered: the applier waits for room before it sends more.
const maxInFlight = 1024

// applier hands the master's commands to the engine as one client.
type applier struct {
	e   *actors.Engine
	reg *command.Registry
	log *slog.Logger
	// publish and publishShard deliver a PUBLISH or SPUBLISH of the
	// master to this node's subscribers (nil: dropped).
	publish, publishShard func(channel, msg []byte)
	// spaces are the namespace definitions, which take the master's
	// (nil: none kept).
	spaces *namespaces.Registry

	db      int
	seq     uint64
	multi   bool
	queue   []actors.Queued
	multiDB int // the database of the queued commands
	// parts are a transaction's commands queued before a SELECT inside
	// it, by database: all run at its EXEC, none before.
	parts []txPart

	// lastShards are the shards of the last command dispatched while
	// keyspace events are on (dispatch); empty while they are off.
	lastShards []int

	slots  chan struct{} // a token per command in flight
	mu     sync.Mutex
	idle   *sync.Cond // signalled when nothing is in flight
	flying int
	// next is the lowest command not yet answered; done the answered
	// ones above it; ends the stream offset reached once a command and
	// all before it ran (advance). applied is that offset (the
	// replica's, which outlives the applier).
	next    uint64
	done    map[uint64]bool
	ends    map[uint64]int64
	applied *atomic.Int64
	// logged counts the master's commands that failed here; the first
	// few are logged.
	logged atomic.Int64
}

func newApplier(e *actors.Engine, reg *command.Registry, log *slog.Logger, publish, publishShard func(channel, msg []byte), applied *atomic.Int64) *applier {
	a := &applier{e: e, reg: reg, log: log, publish: publish, publishShard: publishShard, slots: make(chan struct{}, maxInFlight),
		next: 1, done: map[uint64]bool{}, ends: map[uint64]int64{}, applied: applied}
	a.idle = sync.NewCond(&a.mu)
	return a
}

// Reply implements actors.Replier: a command of the master is done.
func (a *applier) Reply(seq uint64, b []byte) {
	if len(b) > 0 && b[0] == '-' {
		a.failed(b)
	} else if len(b) > 0 && b[0] == '*' && a.failedInExec(b) {
		a.failed(b)
	}
	<-a.slots
	a.mu.Lock()
	a.done[seq] = true
	for a.done[a.next] {
		delete(a.done, a.next)
		if end, ok := a.ends[a.next]; ok {
			a.applied.Store(end)
			delete(a.ends, a.next)
		}
		a.next++
	}
	a.flying--
	if a.flying == 0 {
		a.idle.Broadcast()
	}
	a.mu.Unlock()
}

// failedInExec reports whether an EXEC's reply holds an error reply.
func (a *applier) failedInExec(b []byte) bool {
	r, _, err := resp.ParseReply(b)
	if err != nil {
		return false
	}
	for _, e := range r.Elems {
		if e.Kind == '-' {
			return true
		}
	}
	return false
}

func (a *applier) failed(b []byte) {
	if a.logged.Add(1) <= 10 {
		a.log.Warn("replication: a command of the master failed here", "reply", truncate(b, 200))
	}
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// advance records that the stream up to offset is handed over: applied
// at once when nothing is in flight, else once the last command sent
// and all before it have run.
func (a *applier) advance(offset int64) {
	a.mu.Lock()
	if a.flying == 0 {
		a.applied.Store(offset)
	} else {
		a.ends[a.seq] = offset
	}
	a.mu.Unlock()
}

// wait blocks until every command handed to the engine has run.
func (a *applier) wait() {
	a.mu.Lock()
	for a.flying > 0 {
		a.idle.Wait()
	}
	a.mu.Unlock()
}

// dispatch hands one parsed command to the engine once there is room.
// While keyspace events are on, a command on other shards than the last
// one's waits until those in flight have run: each shard publishes its
// commands' events as it commits them, so they would otherwise reach
// this node's subscribers out of the master's order (a shard runs its
// own commands in order).
func (a *applier) dispatch(spec *command.Spec, run command.Runner, db int, shards []int, args [][]byte) {
	if !a.e.Notifying() {
		a.lastShards = a.lastShards[:0] // events turned on later: the first command waits
	} else if !slices.Equal(shards, a.lastShards) {
		a.wait()
		a.lastShards = append(a.lastShards[:0], shards...)
	}
	a.slots <- struct{}{}
	a.mu.Lock()
	a.flying++
	a.mu.Unlock()
	a.seq++
	// NoBlock: a blocking command of the stream (a master's own, never
	// Redis's, which sends its effect) must not hold the applier, whose
	// wait (GETACK, the end of the stream) waits for every command.
	a.e.Dispatch(&actors.Request{Seq: a.seq, Client: a, Spec: spec, Runner: run, DB: db, Proto: 2,
		Shards: shards, Args: args, NoBlock: spec.Flags&command.Blocking != 0})
}

// errSkip is a command of the stream rekv does not apply here.
var errSkip = errors.New("not applied by a replica")

// apply runs one command of the master's stream (its arguments owned by
// the applier); ack is called for REPLCONF GETACK.
func (a *applier) apply(args [][]byte, ack func()) error {
	if len(args) == 0 {
		return nil
	}
	switch {
	case command.Is(args[0], "ping"):
		return nil
	case command.Is(args[0], "replconf"):
		if len(args) > 1 && command.Is(args[1], "getack") {
			ack()
		}
		return nil
	case command.Is(args[0], "select"):
		n, ok := resp.ParseInt(argAt(args, 1))
		if !ok || n < 0 || n >= store.Databases { // a named namespace's come wrapped
			return fmt.Errorf("SELECT %q: %w", argAt(args, 1), errSkip)
		}
		a.db = int(n)
		return nil
	case command.Is(args[0], "multi"):
		a.multi, a.queue, a.multiDB, a.parts = true, nil, a.db, nil
		return nil
	case command.Is(args[0], "exec"):
		if !a.multi {
			return fmt.Errorf("EXEC without MULTI: %w", errSkip)
		}
		a.exec()
		return nil
	case command.Is(args[0], "discard"):
		a.multi, a.queue, a.parts = false, nil, nil
		return nil
	case command.Is(args[0], "publish") && len(args) == 3 && string(args[1]) == namespaceChannel:
		db, cmd, err := unwrapNamespaced(args[2])
		if err != nil {
			return err
		}
		saved := a.db
		a.db = db
		defer func() { a.db = saved }()
		return a.apply(cmd, ack)
	case command.Is(args[0], "publish") && len(args) == 3 && string(args[1]) == namespaces.ReplChannel:
		return a.takeNamespaces(args[2])
	case command.Is(args[0], "publish") && len(args) == 3:
		if a.publish != nil {
			a.publish(args[1], args[2])
		}
		return nil
	case command.Is(args[0], "spublish") && len(args) == 3:
		if a.publishShard != nil {
			a.publishShard(args[1], args[2])
		}
		return nil
	}
	spec, err := a.reg.Resolve(args)
	if err != nil {
		return fmt.Errorf("%s: %v: %w", args[0], err, errSkip)
	}
	if spec.Flags&(command.Conn|command.Transaction) != 0 {
		return fmt.Errorf("%s: %w", spec.FullName(), errSkip)
	}
	run, err := spec.Parse(args)
	if a.multi {
		if a.db != a.multiDB { // a SELECT inside the transaction
			if len(a.queue) > 0 {
				a.parts = append(a.parts, txPart{a.multiDB, a.queue})
			}
			a.queue, a.multiDB = nil, a.db
		}
		a.queue = append(a.queue, actors.Queued{Spec: spec, Runner: run, Err: err, Args: args})
		return nil
	}
	if err != nil {
		a.failed([]byte(err.Error()))
		return nil
	}
	a.dispatch(spec, run, a.db, a.e.Route(spec, args), args)
	return nil
}

// exec runs the queued transaction at its EXEC: one EXEC per database
// it SELECTed, in order (nothing of it ran before: a link cut before the
// EXEC leaves it whole to be sent again).
func (a *applier) exec() {
	parts := append(a.parts, txPart{a.multiDB, a.queue})
	a.multi, a.queue, a.parts = false, nil, nil
	for _, p := range parts {
		if len(p.queue) > 0 || len(parts) == 1 {
			a.execPart(p)
		}
	}
}

// execPart hands one database's part of a transaction to the engine as
// one EXEC.
func (a *applier) execPart(p txPart) {
	shards := map[int]bool{}
	for _, q := range p.queue {
		for _, i := range a.e.Route(q.Spec, q.Args) {
			shards[i] = true
		}
	}
	list := make([]int, 0, len(shards))
	for i := range a.e.Shards() {
		if shards[i] {
			list = append(list, i)
		}
	}
	if len(list) == 0 {
		list = []int{0}
	}
	spec, _ := a.reg.Resolve([][]byte{[]byte("exec")})
	a.dispatch(spec, a.e.ExecRunner(nil, p.queue, command.Client{}), p.db, list, nil)
}

// takeNamespaces makes the master's namespace definitions (encoded in
// msg) this node's and flushes the namespaces that are no longer
// defined.
func (a *applier) takeNamespaces(msg []byte) error {
	if a.spaces == nil {
		return fmt.Errorf("namespace definitions: %w", errSkip)
	}
	defs, err := namespaces.Decode(msg)
	if err != nil {
		return fmt.Errorf("%v: %w", err, errSkip)
	}
	removed, err := a.spaces.Replace(defs)
	if err != nil {
		return err
	}
	for _, id := range removed {
		if err := a.run(command.NamespaceDB(id, 0), []byte("FLUSHALL")); err != nil {
			return err
		}
	}
	return nil
}

// run hands one command line to the engine in database db (the full
// sync's FLUSHALL, RESTORE and FUNCTION LOAD).
func (a *applier) run(db int, args ...[]byte) error {
	spec, err := a.reg.Resolve(args)
	if err != nil {
		return err
	}
	r, err := spec.Parse(args)
	if err != nil {
		return err
	}
	a.dispatch(spec, r, db, a.e.Route(spec, args), args)
	return nil
}

func argAt(args [][]byte, i int) []byte {
	if i < len(args) {
		return args[i]
	}
	return nil
}
