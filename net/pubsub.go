package net

import (
	"bytes"
	"slices"

	"github.com/rekv/rekv/bus"
	"github.com/rekv/rekv/state"
)

// Pub/Sub: the channel tables are the broker's (state.Broker, embedded in
// Server: its methods answer PUBLISH, SPUBLISH and PUBSUB); a client keeps
// its own subscriptions for SUBSCRIBE's counts and for unsubscribing when
// it closes. A subscriber that does not read has its unsent output capped
// by the pub/sub output buffer limit and is then disconnected, as Redis
// does.

// Publisher carries Pub/Sub messages, each of a namespace, to other
// nodes (package bus).
type Publisher interface {
	Publish(ns uint32, channel, msg []byte)
	PublishShard(ns uint32, channel, msg []byte)
	// Stats returns the bus's counters (INFO cluster).
	Stats() bus.Stats
	// Links returns the bus's connections (CLUSTER LINKS).
	Links() []bus.Link
}

// Publish implements command.Server: the message reaches this node's
// subscribers, and through the bus the other nodes'. The count is this
// node's receivers, as Redis Cluster's PUBLISH counts its own. A named
// namespace's messages are not streamed to replicas (the stream carries
// no namespace for them).
func (s *Server) Publish(ns uint32, channel, msg []byte) int {
	n := s.deliver(ns, channel, msg)
	if s.opts.Replication != nil && ns == 0 {
		s.opts.Replication.Propagate([]byte("PUBLISH"), channel, msg) // replicas' subscribers hear it too
	}
	return n
}

// deliver is Publish without the replication stream: keyspace
// notifications, which a replica raises itself as it applies the writes
// (streamed, its subscribers heard each twice).
func (s *Server) deliver(ns uint32, channel, msg []byte) int {
	n := s.Broker.Publish(ns, channel, msg)
	if s.opts.Bus != nil {
		s.opts.Bus.Publish(ns, channel, msg)
	}
	return n
}

// PublishShard implements command.Server, as Publish for SPUBLISH.
func (s *Server) PublishShard(ns uint32, channel, msg []byte) int {
	n := s.Broker.PublishShard(ns, channel, msg)
	if s.opts.Replication != nil && ns == 0 {
		s.opts.Replication.Propagate([]byte("SPUBLISH"), channel, msg) // as Redis 7.0 outside cluster mode
	}
	if s.opts.Bus != nil {
		s.opts.Bus.PublishShard(ns, channel, msg)
	}
	return n
}

// Deliver implements state.Subscriber: the message goes out right after
// the replies of the commands the client sent before it.
func (cl *client) Deliver(msg []byte) { cl.push(msg) }

// unsubscribeAll drops every subscription of a closing client.
func (s *Server) unsubscribeAll(cl *client) {
	cl.mu.Lock()
	subs, psubs, ssubs := cl.subs, cl.psubs, cl.ssubs
	cl.subs, cl.psubs, cl.ssubs = nil, nil, nil
	cl.countSubsLocked()
	ns := cl.namespace()
	cl.mu.Unlock()
	for kind, set := range map[state.Kind]map[string]struct{}{state.Channel: subs, state.Pattern: psubs, state.ShardChannel: ssubs} {
		if len(set) > 0 {
			s.Broker.Remove(kind, ns, cl, keys(set)...)
		}
	}
}

// moveSubscriptions moves a client's subscriptions from namespace from to
// namespace to (it authenticated into another namespace): they follow the
// connection.
func (s *Server) moveSubscriptions(cl *client, from, to uint32) {
	cl.mu.Lock()
	sets := map[state.Kind][]string{state.Channel: keys(cl.subs), state.Pattern: keys(cl.psubs), state.ShardChannel: keys(cl.ssubs)}
	cl.mu.Unlock()
	for kind, names := range sets {
		if len(names) > 0 {
			s.Broker.Remove(kind, from, cl, names...)
			for _, n := range names {
				s.Broker.Add(kind, to, n, cl)
			}
		}
	}
}

func keys(set map[string]struct{}) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}

// Subscriptions implements command.Client: the client's channel and
// pattern count.
func (cl *client) Subscriptions() int { return int(cl.nsubs.Load()) }

// countSubsLocked records the client's subscription count (under mu).
func (cl *client) countSubsLocked() {
	cl.nsubs.Store(int32(len(cl.subs) + len(cl.psubs) + len(cl.ssubs)))
}

// Subscribe implements command.Client.
func (cl *client) Subscribe(pattern bool, name []byte) int {
	return cl.setSubscription(pattern, name, true)
}

// Unsubscribe implements command.Client.
func (cl *client) Unsubscribe(pattern bool, name []byte) int {
	return cl.setSubscription(pattern, name, false)
}

// setSubscription adds or removes one subscription and returns the count
// after it. The broker's lock is never taken under the client's (Publish
// takes them the other way round).
func (cl *client) setSubscription(pattern bool, name []byte, on bool) int {
	cl.mu.Lock()
	set, kind := &cl.subs, state.Channel
	if pattern {
		set, kind = &cl.psubs, state.Pattern
	}
	if *set == nil {
		*set = map[string]struct{}{}
	}
	_, had := (*set)[string(name)]
	if on {
		(*set)[string(name)] = struct{}{}
	} else {
		delete(*set, string(name))
	}
	count := len(cl.subs) + len(cl.psubs)
	cl.countSubsLocked()
	ns := cl.namespace()
	cl.mu.Unlock()
	switch {
	case on && !had:
		cl.srv.Broker.Add(kind, ns, string(name), cl)
	case !on && had:
		cl.srv.Broker.Remove(kind, ns, cl, string(name))
	}
	return count
}

// Subscribed implements command.Client.
func (cl *client) Subscribed(pattern bool) [][]byte {
	cl.mu.Lock()
	set := cl.subs
	if pattern {
		set = cl.psubs
	}
	names := make([][]byte, 0, len(set))
	for n := range set {
		names = append(names, []byte(n))
	}
	cl.mu.Unlock()
	slices.SortFunc(names, bytes.Compare)
	return names
}

// ShardSubscribe implements command.Client: the count is of shard
// channels only, as in Redis.
func (cl *client) ShardSubscribe(name []byte) int { return cl.setShard(name, true) }

// ShardUnsubscribe implements command.Client.
func (cl *client) ShardUnsubscribe(name []byte) int { return cl.setShard(name, false) }

func (cl *client) setShard(name []byte, on bool) int {
	cl.mu.Lock()
	if cl.ssubs == nil {
		cl.ssubs = map[string]struct{}{}
	}
	_, had := cl.ssubs[string(name)]
	if on {
		cl.ssubs[string(name)] = struct{}{}
	} else {
		delete(cl.ssubs, string(name))
	}
	count := len(cl.ssubs)
	cl.countSubsLocked()
	ns := cl.namespace()
	cl.mu.Unlock()
	switch {
	case on && !had:
		cl.srv.Broker.Add(state.ShardChannel, ns, string(name), cl)
	case !on && had:
		cl.srv.Broker.Remove(state.ShardChannel, ns, cl, string(name))
	}
	return count
}

// ShardSubscribed implements command.Client.
func (cl *client) ShardSubscribed() [][]byte {
	cl.mu.Lock()
	names := make([][]byte, 0, len(cl.ssubs))
	for n := range cl.ssubs {
		names = append(names, []byte(n))
	}
	cl.mu.Unlock()
	slices.SortFunc(names, bytes.Compare)
	return names
}
