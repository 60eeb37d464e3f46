package repl

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/resp"
)

// master is a node's side of its replicas: the stream of its effects and
// the connected replicas.
type master struct {
	bl       *backlog
	mu       sync.Mutex
	replicas map[*peer]struct{}
	acked    chan struct{} // closed (and replaced) when a replica acknowledges
	done     chan struct{} // closed when the node stops being a master
}

// syncStats count the syncs served (INFO stats), for the node's life.
type syncStats struct{ full, partialOK, partialErr atomic.Int64 }

// peer is one connected replica.
type peer struct {
	addr    string
	port    int
	state   atomic.Value // "wait_bgsave", "send_bulk", "online"
	ack     atomic.Int64 // the offset it acknowledged
	ackAt   atomic.Int64 // when (unix ms)
	stopped atomic.Bool
	rd      *reader
	// acked is closed at the replica's first REPLCONF ACK, gone when
	// readAcks stops.
	acked, gone chan struct{}
	firstAck    sync.Once
}

// pingCmd is the PING a master streams every repl-ping-replica-period.
var pingCmd = resp.AppendCommand(nil, []byte("PING"))

// getAckCmd asks every replica for its offset (WAIT).
var getAckCmd = resp.AppendCommand(nil, []byte("REPLCONF"), []byte("GETACK"), []byte("*"))

// Append implements actors.Sink: a committed transaction's effects go to
// the stream (not while the node is a replica, whose writes are its
// master's).
func (r *Replica) Append(fx []store.Effect) {
	m := r.master.Load()
	if m == nil || r.mode.Load()&modeReplica != 0 {
		return
	}
	m.bl.appendEffects(fx)
}

// Propagate streams a command that changes no data (PUBLISH, SPUBLISH)
// to the replicas: nothing while there is no stream or the node is a
// replica (its master's PUBLISH reached it by its own stream).
func (r *Replica) Propagate(args ...[]byte) {
	m := r.master.Load()
	if m == nil || r.mode.Load()&modeReplica != 0 {
		return
	}
	m.bl.appendPublish(resp.AppendCommand(nil, args...))
}

// ensureMaster starts the stream (at the node's offset), once: from then
// on every committed write is streamed.
func (r *Replica) ensureMaster() *master {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.master.Load(); m != nil {
		return m
	}
	m := &master{replicas: map[*peer]struct{}{}, acked: make(chan struct{}), done: make(chan struct{})}
	if r.backlogSize.Load() == 0 {
		r.backlogSize.Store(r.configInt("repl-backlog-size", 1<<20))
	}
	m.bl = newBacklog(r.offset.Load(), &r.backlogSize, 256<<20, &r.offset)
	r.master.Store(m)
	r.o.Engine.SetSink(r)
	go r.ping(m)
	return m
}

// SetBacklogSize applies CONFIG SET repl-backlog-size.
func (r *Replica) SetBacklogSize(n int64) {
	if n > 0 {
		r.backlogSize.Store(n)
	}
}

// configInt reads a numeric parameter, or def.
func (r *Replica) configInt(name string, def int64) int64 {
	if n, err := strconv.ParseInt(r.config(name), 10, 64); err == nil && n > 0 {
		return n
	}
	return def
}

// endMaster drops the replicas and the stream (the node becomes a
// replica: its sub-replicas must sync again).
func (r *Replica) endMaster() {
	m := r.master.Swap(nil)
	if m == nil {
		return
	}
	close(m.done)
	m.bl.close()
}

// ping streams a PING every repl-ping-replica-period while replicas are
// connected, so they see the master alive.
func (r *Replica) ping(m *master) {
	for {
		period := time.Duration(r.configInt("repl-ping-replica-period", 10)) * time.Second
		select {
		case <-m.done:
			return
		case <-time.After(period):
		}
		m.mu.Lock()
		n := len(m.replicas)
		m.mu.Unlock()
		if n > 0 {
			m.bl.appendRaw(pingCmd)
		}
	}
}

// errChained refuses a replica of a replica.
var errChained = rerr.Errorf("ERR rekv does not chain replicas: replicate its master instead")

// errSharedMaster refuses a replica on a shared store.
var errSharedMaster = rerr.Errorf("ERR replicas are not needed on a shared store: every rekv node on this TiKV cluster already serves the same data")

// errFailoverID refuses a FAILOVER PSYNC from another history.
var errFailoverID = rerr.Errorf("ERR PSYNC FAILOVER replid must match my replid.")

// RefuseReplica returns why the node serves no replica now, or nil.
func (r *Replica) RefuseReplica(h command.ReplHello) error {
	st := r.Status()
	switch {
	case h.RDBOnly:
		return nil // the file alone: any node writes it
	case r.o.Shared:
		return errSharedMaster
	case h.Failover && (!st.Replica || h.ReplID != st.ReplID):
		return errFailoverID
	case st.Replica && !h.Failover:
		return errChained
	}
	return nil
}

// ServeReplica serves one replica on nc until it goes: a partial resync
// when the backlog holds what it asks for, else a full sync (an RDB file
// of a snapshot taken where the stream is), then the stream. in brings
// what the replica sends (its REPLCONF ACKs); it is closed when the
// connection closes.
func (r *Replica) ServeReplica(nc stdnet.Conn, in <-chan []byte, h command.ReplHello) error {
	if err := r.RefuseReplica(h); err != nil {
		_, _ = io.WriteString(nc, "-"+err.Error()+"\r\n")
		return err
	}
	if h.RDBOnly {
		return r.sendFile(nc, h)
	}
	if h.Failover {
		// Our master hands us its role (FAILOVER): promote, then serve
		// it as a replica continuing our old history (replid2).
		r.o.Log.Info("replication: MASTER MODE enabled (failover request)", "from", h.Addr)
		if _, err := r.Follow("", 0); err != nil {
			return err
		}
	}
	m := r.ensureMaster()
	p := &peer{addr: h.Addr, port: h.Port, acked: make(chan struct{}), gone: make(chan struct{})}
	p.state.Store("wait_bgsave")
	p.ackAt.Store(time.Now().UnixMilli())
	st := r.Status()
	timeout := r.timeout()
	w := bufio.NewWriterSize(nc, 256<<10)
	if h.PSync && (h.ReplID == st.ReplID || h.ReplID == st.ReplID2 && h.Offset <= st.SecondOffset) {
		if rd, ok := m.bl.joinAt(h.Offset - 1); ok {
			p.rd = rd
			fmt.Fprintf(w, "+CONTINUE %s\r\n", st.ReplID)
			r.syncs.partialOK.Add(1)
			r.o.Log.Info("replication: partial resynchronization", "replica", p.addr, "offset", h.Offset)
		}
	}
	if p.rd == nil {
		r.syncs.full.Add(1)
		if h.PSync && h.ReplID != "?" {
			r.syncs.partialErr.Add(1)
		}
	}
	m.add(p)
	defer m.remove(p)
	go m.readAcks(p, in, timeout)
	full := p.rd == nil
	if full {
		if err := r.sendFullSync(m, p, w, h, st.ReplID); err != nil {
			if p.rd != nil {
				m.bl.leave(p.rd)
			}
			return err
		}
	}
	defer m.bl.leave(p.rd)
	p.state.Store("online")
	if err := w.Flush(); err != nil {
		return err
	}
	if full && h.EOF {
		// As Redis 7.0's master after a transfer ended by a mark: the
		// stream starts at the replica's first ACK. A replica finds the
		// mark only as the last bytes of a read; commands glued after
		// it hide it, and a Redis replica then waits for the end of the
		// file until repl-timeout.
		select {
		case <-p.acked:
		case <-p.gone:
			return io.EOF
		}
	}
	buf := make([]byte, 0, 256<<10)
	for {
		b, err := m.bl.next(p.rd, buf, 256<<10, p.stopped.Load)
		if err != nil || b == nil {
			if err == nil {
				err = io.EOF
			}
			return err
		}
		_ = nc.SetWriteDeadline(time.Now().Add(timeout))
		if _, err := nc.Write(b); err != nil {
			return err
		}
		buf = b
	}
}

// sendFullSync sends a full sync: +FULLRESYNC (PSYNC only), then the RDB
// file of a snapshot taken with no commit in progress, at the stream's
// end, where the replica joins it.
func (r *Replica) sendFullSync(m *master, p *peer, w *bufio.Writer, h command.ReplHello, replID string) error {
	var snap drivers.Txn
	var at int64
	var err error
	r.o.Engine.Quiesce(func() {
		if snap, err = r.o.Drv.Begin(false); err == nil {
			p.rd, at = m.bl.joinEnd()
		}
	})
	if err != nil {
		return err
	}
	defer snap.Rollback()
	p.state.Store("send_bulk")
	t0 := time.Now()
	if h.PSync {
		fmt.Fprintf(w, "+FULLRESYNC %s %d\r\n", replID, at)
	}
	x := Export{Drv: r.o.Drv, Snap: snap, Markers: r.o.Engine.FlushMarkers(), Aux: Aux(r.o.Version, replID, at)}
	if h.Namespaces && r.o.Namespaces != nil {
		x.Namespaces = r.o.Namespaces.All() // a rekv replica: every namespace
	}
	n, err := r.writeFile(w, h.EOF, x)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return err
	}
	r.o.Log.Info("replication: full sync sent", "replica", p.addr, "offset", at, "bytes", n,
		"took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// sendFile serves a client that wants the RDB file alone (REPLCONF
// rdb-only 1: redis-cli --rdb): PSYNC's +FULLRESYNC, then the file of
// the store as of now (its keys, its functions, or both); the
// connection closes after it.
func (r *Replica) sendFile(nc stdnet.Conn, h command.ReplHello) error {
	t0 := time.Now()
	st := r.Status()
	w := bufio.NewWriterSize(nc, 256<<10)
	if h.PSync {
		fmt.Fprintf(w, "+FULLRESYNC %s %d\r\n", st.ReplID, st.Offset)
	}
	x := Export{Drv: r.o.Drv, Markers: r.o.Engine.FlushMarkers(), Aux: Aux(r.o.Version, st.ReplID, st.Offset),
		NoKeys: h.NoKeys, NoFunctions: h.NoFunctions}
	n, err := r.writeFile(w, h.EOF, x)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		r.o.Log.Warn("SYNC: the RDB transfer failed", "addr", h.Addr, "err", err)
		return err
	}
	r.o.Log.Info("SYNC: RDB file sent", "addr", h.Addr, "bytes", n, "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// writeFile writes x as a sync's RDB transfer to w and returns the
// file's size: with an end mark (eof: the peer said capa eof), else
// with its length ahead, from a temporary file in the data directory.
func (r *Replica) writeFile(w *bufio.Writer, eof bool, x Export) (int64, error) {
	if eof {
		b := make([]byte, 20)
		_, _ = rand.Read(b)
		mark := hex.EncodeToString(b)
		fmt.Fprintf(w, "$EOF:%s\r\n", mark)
		n, err := x.WriteTo(w)
		if err != nil {
			return n, err
		}
		_, err = w.WriteString(mark)
		return n, err
	}
	f, err := os.CreateTemp(r.o.Dir, "rekv-sync-*.rdb")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := x.WriteTo(f)
	if err != nil {
		return n, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return n, err
	}
	fmt.Fprintf(w, "$%d\r\n", n)
	_, err = io.Copy(w, f)
	return n, err
}

func (m *master) add(p *peer) {
	m.mu.Lock()
	m.replicas[p] = struct{}{}
	m.mu.Unlock()
}

func (m *master) remove(p *peer) {
	p.stopped.Store(true)
	m.mu.Lock()
	delete(m.replicas, p)
	m.mu.Unlock()
	m.bl.wake()
}

// readAcks reads what the replica sends: REPLCONF ACK offset, which it
// records. A replica silent for timeout (or gone) is stopped.
func (m *master) readAcks(p *peer, in <-chan []byte, timeout time.Duration) {
	defer func() {
		p.stopped.Store(true)
		close(p.gone)
		m.bl.wake()
	}()
	var buf []byte
	var scratch [][]byte
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case b, ok := <-in:
			if !ok {
				return
			}
			buf = append(buf, b...)
		case <-t.C:
			if p.state.Load() == "online" {
				return // no ACK for repl-timeout
			}
			t.Reset(timeout) // loading a full sync: it does not ACK yet
			continue
		case <-m.done:
			return
		}
		for len(buf) > 0 {
			res, err := resp.Parse(buf, resp.DefaultLimits(), scratch)
			if err != nil {
				return
			}
			if res.N == 0 {
				break
			}
			scratch = res.Args[:0]
			a := res.Args
			if len(a) >= 3 && bytes.EqualFold(a[0], []byte("replconf")) && bytes.EqualFold(a[1], []byte("ack")) {
				if off, err := strconv.ParseInt(string(a[2]), 10, 64); err == nil {
					p.ack.Store(off)
					p.ackAt.Store(time.Now().UnixMilli())
					p.firstAck.Do(func() { close(p.acked) })
					m.notifyAck()
					t.Reset(timeout)
				}
			}
			buf = buf[res.N:]
		}
		buf = append([]byte(nil), buf...)
	}
}

// notifyAck wakes WAIT.
func (m *master) notifyAck() {
	m.mu.Lock()
	close(m.acked)
	m.acked = make(chan struct{})
	m.mu.Unlock()
}

// count returns how many replicas acknowledged offset at, and the channel
// closed at the next acknowledgement.
func (m *master) count(at int64) (int, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for p := range m.replicas {
		if p.state.Load() == "online" && p.ack.Load() >= at {
			n++
		}
	}
	return n, m.acked
}

// Wait serves WAIT numreplicas timeout: done gets how many replicas
// acknowledged every write made before the call, once numreplicas did or
// the timeout passed (0: no limit); at once when now is set (inside EXEC
// or a script) or enough did already. It asks the replicas for their
// offset (REPLCONF GETACK) when it waits.
func (r *Replica) Wait(numreplicas int, timeout time.Duration, now bool, done func(int)) {
	m := r.master.Load()
	target := r.offset.Load()
	n := 0
	var acked <-chan struct{}
	if m != nil {
		n, acked = m.count(target)
	}
	switch {
	case now || n >= numreplicas:
		done(n)
		return
	case m == nil: // no replica can come to acknowledge what came before
		if timeout > 0 {
			time.AfterFunc(timeout, func() { done(0) })
		}
		return
	}
	m.bl.appendRaw(getAckCmd)
	go func() {
		var expire <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			expire = t.C
		}
		for {
			select {
			case <-expire:
				n, _ = m.count(target)
				done(n)
				return
			case <-m.done:
				done(n)
				return
			case <-acked:
				if n, acked = m.count(target); n >= numreplicas {
					done(n)
					return
				}
			}
		}
	}()
}

// GoodReplicas returns how many replicas are online and acknowledged
// within maxLag (min-replicas-to-write).
func (r *Replica) GoodReplicas(maxLag time.Duration) int {
	m := r.master.Load()
	if m == nil {
		return 0
	}
	since := time.Now().Add(-maxLag).UnixMilli()
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for p := range m.replicas {
		if p.state.Load() == "online" && p.ackAt.Load() >= since {
			n++
		}
	}
	return n
}

// replicasStatus fills the master's part of st: the replicas and the
// backlog.
func (r *Replica) replicasStatus(st *command.ReplStatus) {
	st.SyncFull, st.SyncPartialOK, st.SyncPartialErr = r.syncs.full.Load(), r.syncs.partialOK.Load(), r.syncs.partialErr.Load()
	m := r.master.Load()
	if m == nil {
		return
	}
	st.BacklogActive = true
	st.BacklogFirst, st.BacklogLen = m.bl.stats()
	st.BacklogFirst++ // Redis counts from 1
	now := time.Now().UnixMilli()
	m.mu.Lock()
	defer m.mu.Unlock()
	for p := range m.replicas {
		st.Replicas = append(st.Replicas, command.ReplicaInfo{Addr: p.addr, Port: p.port,
			State: p.state.Load().(string), Offset: p.ack.Load(), Lag: (now - p.ackAt.Load()) / 1000})
	}
	slices.SortFunc(st.Replicas, func(a, b command.ReplicaInfo) int {
		return cmp.Or(strings.Compare(a.Addr, b.Addr), cmp.Compare(a.Port, b.Port))
	})
}
