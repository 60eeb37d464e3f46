package repl

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	stdnet "net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/namespaces"
	"github.com/rekv/rekv/resp"
)

// Options configure a node's replication.
type Options struct {
	Engine   *actors.Engine
	Registry *command.Registry
	// Dir holds the RDB file of a full sync while it loads.
	Dir string
	// Port is this node's client port, announced to the master.
	Port func() int
	// Config returns a configuration parameter's value now (masterauth,
	// masteruser, repl-timeout).
	Config func(name string) string
	// Publish and PublishShard deliver the master's PUBLISH and SPUBLISH
	// to this node's subscribers.
	Publish, PublishShard func(channel, msg []byte)
	// Namespaces are the store's namespace definitions: a replica takes
	// its master's (nil: it has none, and a master sends none).
	Namespaces *namespaces.Registry
	// Shared: the store is shared with other nodes (TiKV), which makes
	// REPLICAOF pointless: every node already sees the same data.
	Shared bool
	// Drv is the store a full sync sent to a replica reads; Version the
	// server version its RDB file names.
	Drv     drivers.Driver
	Version string
	// PauseWrites holds (true) or releases clients' writes (FAILOVER).
	PauseWrites func(on bool)
	Log         *slog.Logger
	// Panics, when set, counts the panics of links recovered (package
	// guard).
	Panics *guard.Counter
}

// Replica is a node's replication state: a master (the default), or a
// replica of one master at a time.
type Replica struct {
	o Options

	mu sync.Mutex
	st command.ReplStatus // guarded by mu; Offset is offset's
	// stop ends the running link (nil: none); ended is closed when it
	// has ended.
	stop  context.CancelFunc
	ended chan struct{}
	// synced: the node holds a master's data set at st.ReplID (PSYNC
	// may continue it).
	synced bool

	offset atomic.Int64 // the replication offset applied
	read   atomic.Int64 // the offset read from the master
	// mode mirrors st for admission: modeReplica, modeUp, modeLoading.
	mode atomic.Uint32
	// master streams the node's writes to its replicas (nil until the
	// first replica comes, and while the node is a replica).
	master atomic.Pointer[master]
	syncs  syncStats
	// fo is the FAILOVER in progress (failover.go), guarded by mu;
	// foSent: its PSYNC went out.
	fo     *failoverRun
	foSent bool
	// streamDB is the database the master's stream had selected at the
	// offset applied: where a partial resync continues.
	streamDB atomic.Int64
	// backlogSize is repl-backlog-size (0: read the parameter when the
	// backlog starts).
	backlogSize atomic.Int64
}

const (
	modeReplica = 1 << iota
	modeUp
	modeLoading
)

// Mode reports whether the node is a replica, its link is up, and it
// loads a full sync (read on every client command: no lock).
func (r *Replica) Mode() (replica, up, loading bool) {
	m := r.mode.Load()
	return m&modeReplica != 0, m&modeUp != 0, m&modeLoading != 0
}

// New returns a master's replication state: a fresh replication ID at
// offset 0.
func New(o Options) *Replica {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	r := &Replica{o: o}
	r.st = command.ReplStatus{ReplID: newReplID(), ReplID2: zeroID, SecondOffset: -1}
	return r
}

const zeroID = "0000000000000000000000000000000000000000"

func newReplID() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Status returns the replication state now.
func (r *Replica) Status() command.ReplStatus {
	r.mu.Lock()
	st := r.st
	r.mu.Unlock()
	st.Offset, st.ReadOffset = r.offset.Load(), r.read.Load()
	r.replicasStatus(&st)
	st.FailoverState = r.failoverState()
	return st
}

// SetEngine gives the replica the engine the master's commands go to;
// Follow refuses to start before it.
func (r *Replica) SetEngine(e *actors.Engine) {
	r.mu.Lock()
	r.o.Engine = e
	r.mu.Unlock()
}

// ErrShared refuses REPLICAOF on a shared store.
var ErrShared = rerr.Errorf("ERR REPLICAOF is not needed on a shared store: every rekv node on this TiKV cluster already serves the same data")

// Follow makes the node a replica of host:port, or (host "") a master
// again; it returns the status line to answer.
func (r *Replica) Follow(host string, port int) (string, error) {
	if r.o.Shared && host != "" {
		return "", ErrShared
	}
	r.mu.Lock()
	if r.o.Engine == nil {
		r.mu.Unlock()
		return "", rerr.Errorf("ERR the server is starting")
	}
	if host != "" && r.st.Replica && r.st.MasterHost == host && r.st.MasterPort == port {
		r.mu.Unlock()
		return "OK Already connected to specified master", nil
	}
	if host == "" && !r.st.Replica {
		r.mu.Unlock()
		return "OK", nil
	}
	r.mu.Unlock()
	r.halt()
	r.mu.Lock()
	defer r.mu.Unlock()
	if host == "" {
		// A promotion: a new history, which continues the old one up to
		// here (a replica of the old master may PSYNC from us).
		off := r.offset.Load()
		r.st = command.ReplStatus{ReplID: newReplID(), ReplID2: r.st.ReplID, SecondOffset: off + 1}
		r.setMode()
		r.o.Log.Info("replication: MASTER MODE enabled (REPLICAOF NO ONE)", "replid", r.st.ReplID, "offset", off)
		return "OK", nil
	}
	r.endMaster() // its replicas must sync again, from the new master's data
	r.st.Replica, r.st.MasterHost, r.st.MasterPort = true, host, port
	r.st.State, r.st.Up, r.st.DownSince, r.st.LastIO = "connect", false, time.Time{}, time.Time{}
	r.setMode()
	ctx, cancel := context.WithCancel(context.Background())
	r.stop, r.ended = cancel, make(chan struct{})
	go r.follow(ctx, host, port, r.ended)
	r.o.Log.Info("replication: connecting to MASTER", "master", stdnet.JoinHostPort(host, strconv.Itoa(port)))
	return "OK", nil
}

// Close ends the link, if any.
func (r *Replica) Close() { r.halt() }

// halt stops the running link and waits for it to end.
func (r *Replica) halt() {
	r.mu.Lock()
	stop, ended := r.stop, r.ended
	r.stop, r.ended = nil, nil
	r.mu.Unlock()
	if stop != nil {
		stop()
		<-ended
	}
}

// update changes the status under the lock.
func (r *Replica) update(f func(st *command.ReplStatus)) {
	r.mu.Lock()
	f(&r.st)
	r.setMode()
	r.mu.Unlock()
}

// setMode mirrors st in mode; mu is held.
func (r *Replica) setMode() {
	var m uint32
	if r.st.Replica {
		m |= modeReplica
	}
	if r.st.Up {
		m |= modeUp
	}
	if r.st.Loading {
		m |= modeLoading
	}
	r.mode.Store(m)
}

// follow keeps a link to the master until ctx ends: each failed or
// dropped session is retried a second later, as Redis's replication
// cron does.
func (r *Replica) follow(ctx context.Context, host string, port int, ended chan struct{}) {
	defer close(ended)
	addr := stdnet.JoinHostPort(host, strconv.Itoa(port))
	for {
		err := r.guardedSession(ctx, addr)
		wasUp := false
		r.update(func(st *command.ReplStatus) {
			wasUp = st.Up
			st.Up, st.Syncing, st.Loading, st.State = false, false, false, "connect"
			if wasUp || st.DownSince.IsZero() {
				st.DownSince = time.Now()
			}
		})
		if ctx.Err() != nil {
			return
		}
		r.o.Log.Warn("replication: the link with the MASTER failed", "master", addr, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// guardedSession runs session; a panic in it (applying the master's
// stream) is reported and ends the link like an error, and follow
// connects again.
func (r *Replica) guardedSession(ctx context.Context, addr string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			guard.Guard{Log: r.o.Log, Count: r.o.Panics}.Report(p, "replication: the link with the MASTER panicked", "master", addr)
			err = errLinkPanicked
		}
	}()
	return r.session(ctx, addr)
}

// errLinkPanicked ends a link whose session panicked.
var errLinkPanicked = errors.New("a panic while following the master (logged)")

// timeout is repl-timeout.
func (r *Replica) timeout() time.Duration {
	if r.o.Config != nil {
		if s, err := strconv.Atoi(r.o.Config("repl-timeout")); err == nil && s > 0 {
			return time.Duration(s) * time.Second
		}
	}
	return time.Minute
}

func (r *Replica) config(name string) string {
	if r.o.Config == nil {
		return ""
	}
	return r.o.Config(name)
}

// session is one connection: handshake, a full or partial sync, then
// the command stream until it fails or ctx ends.
func (r *Replica) session(ctx context.Context, addr string) error {
	r.update(func(st *command.ReplStatus) { st.State = "connecting" })
	conn, err := r.dial(ctx, addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	stopWatch := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stopWatch()
	l := &link{conn: conn, br: bufio.NewReaderSize(conn, 1<<20), timeout: r.timeout()}
	port := 0
	if r.o.Port != nil {
		port = r.o.Port()
	}
	if err := l.handshake(r.config("masteruser"), r.config("masterauth"), port); err != nil {
		return err
	}
	r.mu.Lock()
	id, synced := r.st.ReplID, r.synced
	r.mu.Unlock()
	off := r.offset.Load()
	ask, at := "?", int64(-1)
	if synced {
		ask, at = id, off+1
	}
	fo := r.failoverPSync()
	ps, err := l.psync(ask, at, fo != nil)
	if fo != nil {
		fo.result <- err
	}
	if err != nil {
		return err
	}
	a := newApplier(r.o.Engine, r.o.Registry, r.o.Log, r.o.Publish, r.o.PublishShard, &r.offset)
	a.spaces = r.o.Namespaces
	if !ps.full {
		// The stream goes on where it stopped, in the database it had
		// selected there (a master sends no SELECT after +CONTINUE).
		a.db = int(r.streamDB.Load())
	} else {
		r.streamDB.Store(0)
	}
	if ps.full {
		if err := r.fullSync(ctx, l, a, ps); err != nil {
			return err
		}
	} else {
		r.o.Log.Info("replication: partial resynchronization accepted", "master", addr, "offset", off)
		if ps.replID != "" && ps.replID != id {
			r.update(func(st *command.ReplStatus) {
				st.ReplID2, st.SecondOffset, st.ReplID = st.ReplID, off+1, ps.replID
			})
		}
	}
	r.update(func(st *command.ReplStatus) {
		st.State, st.Up, st.Syncing, st.LastIO = "connected", true, false, time.Now()
	})
	// The first ACK puts this replica online on a master that waits for
	// it after a diskless transfer; then one a second.
	if err := r.ack(l); err != nil {
		return err
	}
	acks := make(chan struct{})
	defer close(acks)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-acks:
				return
			case <-t.C:
				if r.ack(l) != nil {
					_ = conn.Close()
					return
				}
			}
		}
	}()
	err = r.stream(l, a)
	a.wait()
	return err
}

// ack sends REPLCONF ACK with the offset applied.
func (r *Replica) ack(l *link) error {
	return l.send("REPLCONF", "ACK", strconv.FormatInt(r.offset.Load(), 10))
}

// ackApplied answers REPLCONF GETACK as a Redis replica does: with the
// offset of every command received before it. Those are handed to the
// engine but may still be running: it waits for them first, so the ack
// covers them (else the master's WAIT waits for the periodic ACK, a
// second later) and never covers a write not yet applied here.
func (r *Replica) ackApplied(l *link, a *applier) {
	a.wait()
	_ = r.ack(l)
}

// errStreamTooBig is a command of the stream over the protocol's limits.
var errStreamTooBig = errors.New("a command of the master's stream is malformed or too big")

// stream applies the master's commands until the link fails.
func (r *Replica) stream(l *link, a *applier) error {
	buf := make([]byte, 0, 64<<10)
	var scratch [][]byte
	at := r.offset.Load() // the offset after the last command parsed
	r.read.Store(at)
	for {
		for len(buf) > 0 {
			res, err := parse(buf, scratch)
			if err != nil {
				return fmt.Errorf("%w: %v", errStreamTooBig, err)
			}
			if res.N == 0 {
				break
			}
			scratch = res.Args[:0]
			args := resp.CopyArgs(res.Args)
			buf = buf[res.N:]
			at += int64(res.N)
			if err := a.apply(args, func() { r.ackApplied(l, a) }); err != nil {
				a.failed([]byte(err.Error()))
			}
			if !a.multi { // a transaction counts at its EXEC
				a.advance(at)
				r.streamDB.Store(int64(a.db))
			}
		}
		buf = compact(buf)
		_ = l.conn.SetReadDeadline(time.Now().Add(l.timeout))
		n, err := l.br.Read(buf[len(buf):cap(buf)])
		if n > 0 {
			buf = buf[:len(buf)+n]
			r.read.Add(int64(n))
			r.update(func(st *command.ReplStatus) { st.LastIO = time.Now() })
		}
		if err != nil {
			return err
		}
	}
}
