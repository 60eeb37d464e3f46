package net

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/cluster"
)

// ClusterView is cluster mode's membership as the network front reads it
// (cluster/membership.Membership).
type ClusterView interface {
	// State returns the newest state the node read.
	State() *cluster.State
	// Healthy reports whether the node renewed its membership within its
	// node timeout.
	Healthy() bool
}

// Cluster implements command.Server.
func (s *Server) Cluster() (*cluster.State, bool) {
	if s.opts.Cluster == nil {
		return nil, false
	}
	return s.opts.Cluster.State(), s.opts.Cluster.Healthy()
}

// ClusterLinks implements command.Observer: the bus's connections.
func (s *Server) ClusterLinks() []command.ClusterLink {
	if s.opts.Bus == nil {
		return nil
	}
	links := s.opts.Bus.Links()
	out := make([]command.ClusterLink, len(links))
	for i, l := range links {
		out[i] = command.ClusterLink{To: l.To, Node: l.Node, Created: l.Created, Queued: l.Queued, Buffer: l.Buffer}
	}
	return out
}

// clusterRouted is Redis Cluster's redirection (getNodeByQuery): in
// cluster mode a command's keys must share one slot (CROSSSLOT), which
// this node must serve (MOVED to its owner, CLUSTERDOWN when none,
// TRYAGAIN while it is handed over). EXEC
// checks every queued command's keys, and a refused EXEC ends the
// transaction; any other refused command in MULTI aborts the EXEC to come
// (the caller's fail), as in Redis. Keyless commands go through.
func clusterRouted(s *Server, a *admission) error {
	if s.opts.Cluster == nil {
		return nil
	}
	slot := -1
	var idx [8]int
	keys := func(spec *command.Spec, args [][]byte) error {
		for _, i := range spec.KeyIndexes(args, idx[:0]) {
			sl := cluster.KeySlot(args[i])
			if slot >= 0 && sl != slot {
				return rerr.ErrCrossSlot
			}
			slot = sl
		}
		return nil
	}
	exec := a.spec.Flags&command.RunsQueued != 0 && a.cl.multi
	err := keys(a.spec, a.args)
	if exec {
		for i := 0; i < len(a.cl.queue) && err == nil; i++ {
			err = keys(a.cl.queue[i].Spec, a.cl.queue[i].Args)
		}
	}
	if err == nil && slot >= 0 {
		err = command.ClusterRefusal(s.opts.Cluster.State(), slot)
	}
	if err != nil && exec {
		a.cl.endMulti()
	}
	if err != nil {
		return redirection{err}
	}
	return nil
}

// redirection is a refusal of clusterRouted: Redis answers it as it is,
// even to EXEC (no EXECABORT: clusterRedirectClient, not rejectCommand).
type redirection struct{ err error }

func (r redirection) Error() string { return r.err.Error() }
func (r redirection) Unwrap() error { return r.err }
