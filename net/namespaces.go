package net

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/namespaces"
)

// Namespaces on this node: each named namespace's command counter and
// rate (INFO namespaces, /metrics, the max-ops-per-sec quota), and the
// admission guard of its quotas. The default namespace (id 0) has no
// quotas and costs nothing here: every guard returns at once for it.

// nsMeter counts one namespace's commands on this node.
type nsMeter struct {
	total atomic.Int64
	// sec is the unix second the window counts (inSec commands so
	// far); last the count of the second before it.
	sec, inSec, last atomic.Int64
}

// count counts one command at now (unix seconds) and returns the
// commands counted in this second so far, it included.
func (m *nsMeter) count(now int64) int64 {
	m.total.Add(1)
	for {
		sec := m.sec.Load()
		if sec == now {
			return m.inSec.Add(1)
		}
		if m.sec.CompareAndSwap(sec, now) {
			prev := m.inSec.Swap(1)
			if sec == now-1 {
				m.last.Store(prev)
			} else {
				m.last.Store(0)
			}
			return 1
		}
	}
}

// rate returns the commands of the last full second.
func (m *nsMeter) rate(now int64) int64 {
	switch m.sec.Load() {
	case now:
		return m.last.Load()
	case now - 1:
		return m.inSec.Load()
	}
	return 0
}

// nsMeters are the meters by namespace id.
type nsMeters struct{ m sync.Map } // uint32 -> *nsMeter

func (ms *nsMeters) get(id uint32) *nsMeter {
	if v, ok := ms.m.Load(id); ok {
		return v.(*nsMeter)
	}
	v, _ := ms.m.LoadOrStore(id, &nsMeter{})
	return v.(*nsMeter)
}

// namespaceQuota is the admission guard of a named namespace's quotas:
// it counts the command, refuses it past max-ops-per-sec, and refuses a
// command that may grow the data set (Redis's denyoom) while the
// namespace's measured keys or bytes are at or over max-keys or
// max-bytes. Reads, deletions and the like are still served then.
func namespaceQuota(s *Server, a *admission) error {
	id := command.NamespaceOf(a.db)
	if id == 0 || s.opts.Namespaces == nil {
		return nil
	}
	n := s.nsMeters.get(id).count(time.Now().Unix())
	ns, ok := s.opts.Namespaces.ByID(id)
	if !ok {
		return nil // deleted: its connections are being closed
	}
	q, u := ns.Quota, ns.Usage
	switch {
	case q.Ops > 0 && n > q.Ops:
		return rerr.Errorf("ERR namespace '%s' is over its quota of %d commands per second (max-ops-per-sec)", ns.Name, q.Ops)
	case !a.effective().denyOOM:
		return nil
	case q.Keys > 0 && u.Keys >= q.Keys:
		return rerr.Errorf("OOM namespace '%s' is over its quota of %d keys (max-keys)", ns.Name, q.Keys)
	case q.Bytes > 0 && u.Bytes >= q.Bytes:
		return rerr.Errorf("OOM namespace '%s' is over its quota of %d bytes (max-bytes)", ns.Name, q.Bytes)
	}
	return nil
}

// NamespaceClients implements command.Clients: this node's connections
// in namespace id.
func (s *Server) NamespaceClients(id uint32) int {
	n := 0
	s.clients.Range(func(_, v any) bool {
		if v.(*client).namespace() == id {
			n++
		}
		return true
	})
	return n
}

// NamespaceFigures are one namespace's figures on this node, as INFO
// namespaces and /metrics report them.
type NamespaceFigures struct {
	namespaces.Namespace
	Commands, OpsPerSec int64
	Clients             int
}

// namespaceFigures returns the figures of every namespace, the default
// one first (no quotas; its keys are INFO keyspace's, not metered).
func (s *Server) namespaceFigures() []NamespaceFigures {
	var all []namespaces.Namespace
	if s.opts.Namespaces != nil {
		all = s.opts.Namespaces.All()
	}
	all = slices.Insert(all, 0, namespaces.Namespace{Name: namespaces.Default})
	clients := map[uint32]int{}
	s.clients.Range(func(_, v any) bool {
		clients[v.(*client).namespace()]++
		return true
	})
	now := time.Now().Unix()
	out := make([]NamespaceFigures, len(all))
	var named, namedRate int64
	for i, ns := range all[1:] {
		m := s.nsMeters.get(ns.ID)
		out[i+1] = NamespaceFigures{Namespace: ns, Commands: m.total.Load(), OpsPerSec: m.rate(now), Clients: clients[ns.ID]}
		named += out[i+1].Commands
		namedRate += out[i+1].OpsPerSec
	}
	// The default namespace's commands are not counted apart (nothing
	// is added to its commands' path): all of them but the others'.
	ops, _, _ := s.stats.ops.Rates()
	out[0] = NamespaceFigures{Namespace: all[0], Commands: max(s.totalCmds.Load()-named, 0),
		OpsPerSec: max(int64(ops)-namedRate, 0), Clients: clients[0]}
	return out
}

// namespacesSection returns INFO namespaces: one line per namespace,
// "namespace<id>:" then its figures, its name last (a name is any bytes
// but a line end).
func (s *Server) namespacesSection() [][2]string {
	var out [][2]string
	for _, f := range s.namespaceFigures() {
		v := fmt.Sprintf("clients=%d,commands=%d,ops_per_sec=%d", f.Clients, f.Commands, f.OpsPerSec)
		if f.ID != 0 {
			at := int64(-1) // never metered
			if !f.Usage.At.IsZero() {
				at = f.Usage.At.Unix()
			}
			v += fmt.Sprintf(",keys=%d,bytes=%d,metered_at=%d,max_keys=%d,max_bytes=%d,max_ops_per_sec=%d,max_clients=%d",
				f.Usage.Keys, f.Usage.Bytes, at, f.Quota.Keys, f.Quota.Bytes, f.Quota.Ops, f.Quota.Clients)
		}
		out = append(out, [2]string{"namespace" + strconv.FormatUint(uint64(f.ID), 10), v + ",name=" + f.Name})
	}
	return out
}
