package net

import (
	"cmp"
	"fmt"
	stdnet "net"
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// Replication is the node's replication state (repl.Replica).
type Replication interface {
	// Follow makes the node a replica of host:port, or a master again
	// (host ""), and returns the status line to answer.
	Follow(host string, port int) (string, error)
	Status() command.ReplStatus
	// Mode is what admission checks on every command: the node is a
	// replica, its link is up, it loads a full sync.
	Mode() (replica, up, loading bool)
	// RefuseReplica returns why this node serves no replica now (a
	// shared store, a replica itself), or nil.
	RefuseReplica(h command.ReplHello) error
	// ServeReplica serves a replica on nc until it goes; in brings what
	// it sends, and is closed with the connection.
	ServeReplica(nc stdnet.Conn, in <-chan []byte, h command.ReplHello) error
	// Failover serves FAILOVER.
	Failover(o command.FailoverOptions) error
	// Wait serves WAIT (command.Admin.WaitReplicas).
	Wait(n int, timeout time.Duration, now bool, done func(int))
	// Propagate streams a command with no data effect (PUBLISH) to the
	// replicas, if any.
	Propagate(args ...[]byte)
	// SetBacklogSize applies repl-backlog-size.
	SetBacklogSize(n int64)
	// GoodReplicas returns how many replicas acknowledged within maxLag.
	GoodReplicas(maxLag time.Duration) int
}

// Failover implements command.Admin.
func (vw nodeRole) Failover(o command.FailoverOptions) error {
	s := vw.s
	if s.opts.Replication == nil {
		return rerr.Errorf("ERR replication is not available on this node")
	}
	return s.opts.Replication.Failover(o)
}

// WaitReplicas implements command.Admin.
func (vw nodeRole) WaitReplicas(n int, timeout time.Duration, now bool, done func(int)) {
	s := vw.s
	g, reply := s.guard(), done
	done = func(k int) { g.Func("WAIT reply", func() { reply(k) })() } // called from timers and goroutines
	if s.opts.Replication != nil {
		s.opts.Replication.Wait(n, timeout, now, done)
		return
	}
	if now || n <= 0 {
		done(0)
		return
	}
	if timeout > 0 {
		time.AfterFunc(timeout, func() { done(0) })
	}
}

// ReplicaOf implements command.Admin (REPLICAOF, SLAVEOF).
func (vw nodeRole) ReplicaOf(host string, port int) (string, error) {
	s := vw.s
	if s.opts.Replication == nil {
		return "", rerr.Errorf("ERR replication is not available on this node")
	}
	return s.opts.Replication.Follow(host, port)
}

// Replication implements command.Observer: a master at offset 0 with the
// run ID as replication ID when the node has no replication.
func (s *Server) Replication() command.ReplStatus {
	if s.opts.Replication == nil {
		return command.ReplStatus{ReplID: s.stats.runID, ReplID2: strings.Repeat("0", 40), SecondOffset: -1}
	}
	return s.opts.Replication.Status()
}

// ReadOnlyReplica implements command.Observer.
func (s *Server) ReadOnlyReplica() bool {
	if s.opts.Replication == nil || !s.rt.replicaReadOnly.Load() {
		return false
	}
	replica, _, _ := s.opts.Replication.Mode()
	return replica
}

// replicationInfo returns INFO replication's lines, as Redis 7.0 writes
// them.
func (s *Server) replicationInfo(add func(string, any), backlog string) {
	st := s.Replication()
	now := time.Now()
	ago := func(t time.Time) int64 {
		if t.IsZero() {
			return -1
		}
		return int64(now.Sub(t).Seconds())
	}
	if !st.Replica {
		add("role", "master")
	} else {
		add("role", "slave")
		add("master_host", st.MasterHost)
		add("master_port", st.MasterPort)
		add("master_link_status", map[bool]string{true: "up", false: "down"}[st.Up])
		add("master_last_io_seconds_ago", ago(st.LastIO))
		add("master_sync_in_progress", b2i(st.Syncing))
		add("slave_read_repl_offset", st.ReadOffset)
		add("slave_repl_offset", st.Offset)
		if st.Syncing {
			perc := 0.0
			if st.SyncTotal > 0 {
				perc = float64(st.SyncRead) * 100 / float64(st.SyncTotal)
			}
			add("master_sync_total_bytes", st.SyncTotal)
			add("master_sync_read_bytes", st.SyncRead)
			add("master_sync_left_bytes", max(st.SyncTotal-st.SyncRead, -1))
			add("master_sync_perc", fmt.Sprintf("%.2f", perc))
			add("master_sync_last_io_seconds_ago", ago(st.LastIO))
		}
		if !st.Up {
			add("master_link_down_since_seconds", ago(st.DownSince))
		}
		add("slave_priority", 100)
		add("slave_read_only", b2i(s.rt.replicaReadOnly.Load()))
		add("replica_announced", 1)
	}
	add("connected_slaves", len(st.Replicas))
	for i, r := range st.Replicas {
		add(fmt.Sprintf("slave%d", i), fmt.Sprintf("ip=%s,port=%d,state=%s,offset=%d,lag=%d", r.Addr, r.Port, r.State, r.Offset, r.Lag))
	}
	add("master_failover_state", cmp.Or(st.FailoverState, "no-failover"))
	add("master_replid", st.ReplID)
	add("master_replid2", st.ReplID2)
	add("master_repl_offset", st.Offset)
	add("second_repl_offset", st.SecondOffset)
	add("repl_backlog_active", b2i(st.BacklogActive))
	add("repl_backlog_size", backlog)
	add("repl_backlog_first_byte_offset", st.BacklogFirst)
	add("repl_backlog_histlen", st.BacklogLen)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
