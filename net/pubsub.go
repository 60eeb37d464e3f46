package net

import (
	"bytes"
	"slices"
	"sync"

	"github.com/rekv/rekv/glob"
	"github.com/rekv/rekv/resp"
)

// Pub/Sub lives entirely in the network layer: no storage is involved.
//
// The broker maps channels and patterns to subscribed clients. PUBLISH
// pushes the message into each subscriber's output right after the replies
// of the commands that subscriber had sent before (client.push), so a
// SUBSCRIBE's confirmation always precedes its messages. A subscriber that
// does not read has its unsent output capped by the pub/sub output buffer
// limit and is then disconnected, as Redis does.

type broker struct {
	mu       sync.RWMutex
	channels map[string]map[*client]struct{}
	patterns map[string]map[*client]struct{}
	shards   map[string]map[*client]struct{} // SSUBSCRIBE: a name space of its own
}

func newBroker() *broker {
	return &broker{channels: map[string]map[*client]struct{}{}, patterns: map[string]map[*client]struct{}{},
		shards: map[string]map[*client]struct{}{}}
}

func (b *broker) table(pattern bool) map[string]map[*client]struct{} {
	if pattern {
		return b.patterns
	}
	return b.channels
}

func (b *broker) add(pattern bool, name string, cl *client) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(pattern)
	if t[name] == nil {
		t[name] = map[*client]struct{}{}
	}
	t[name][cl] = struct{}{}
}

func (b *broker) remove(pattern bool, name string, cl *client) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(pattern)
	delete(t[name], cl)
	if len(t[name]) == 0 {
		delete(t, name)
	}
}

// Publish implements command.Server: it delivers msg to the channel's
// subscribers and to matching patterns, returning how many received it.
func (s *Server) Publish(channel, msg []byte) int {
	b := s.broker
	b.mu.RLock()
	defer b.mu.RUnlock()
	var enc [4][]byte // [proto][message, pmessage] cache for direct subscribers
	n := 0
	for cl := range b.channels[string(channel)] {
		p := cl.Proto()
		if enc[p] == nil {
			w := resp.NewWriter(p)
			w.Push(3)
			w.BulkString("message")
			w.Bulk(channel)
			w.Bulk(msg)
			enc[p] = w.Bytes()
		}
		cl.push(enc[p])
		n++
	}
	for pat, set := range b.patterns {
		if !glob.Match([]byte(pat), channel, false) {
			continue
		}
		for cl := range set {
			w := resp.NewWriter(cl.Proto())
			w.Push(4)
			w.BulkString("pmessage")
			w.BulkString(pat)
			w.Bulk(channel)
			w.Bulk(msg)
			cl.push(w.Bytes())
			n++
		}
	}
	return n
}

// unsubscribeAll drops every subscription of a closing client.
func (s *Server) unsubscribeAll(cl *client) {
	cl.mu.Lock()
	subs, psubs, ssubs := cl.subs, cl.psubs, cl.ssubs
	cl.subs, cl.psubs, cl.ssubs = nil, nil, nil
	cl.mu.Unlock()
	s.broker.mu.Lock()
	for ch := range ssubs {
		delete(s.broker.shards[ch], cl)
		if len(s.broker.shards[ch]) == 0 {
			delete(s.broker.shards, ch)
		}
	}
	s.broker.mu.Unlock()
	for ch := range subs {
		s.broker.remove(false, ch, cl)
	}
	for p := range psubs {
		s.broker.remove(true, p, cl)
	}
}

// Subscriptions implements command.Client: the client's channel and
// pattern count.
func (cl *client) Subscriptions() int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return len(cl.subs) + len(cl.psubs) + len(cl.ssubs)
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
	set := &cl.subs
	if pattern {
		set = &cl.psubs
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
	cl.mu.Unlock()
	switch {
	case on && !had:
		cl.srv.broker.add(pattern, string(name), cl)
	case !on && had:
		cl.srv.broker.remove(pattern, string(name), cl)
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

// Channels implements command.Server.
func (s *Server) Channels(pattern []byte) []string {
	b := s.broker
	b.mu.RLock()
	var out []string
	for ch := range b.channels {
		if pattern == nil || glob.Match(pattern, []byte(ch), false) {
			out = append(out, ch)
		}
	}
	b.mu.RUnlock()
	slices.Sort(out)
	return out
}

// NumSub implements command.Server.
func (s *Server) NumSub(channel []byte) int {
	s.broker.mu.RLock()
	defer s.broker.mu.RUnlock()
	return len(s.broker.channels[string(channel)])
}

// Receivers implements command.Server.
func (s *Server) Receivers(channel []byte) int {
	b := s.broker
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := len(b.channels[string(channel)])
	for pat, set := range b.patterns {
		if glob.Match([]byte(pat), channel, false) {
			n += len(set)
		}
	}
	return n
}

// NumPat implements command.Server.
func (s *Server) NumPat() int {
	s.broker.mu.RLock()
	defer s.broker.mu.RUnlock()
	return len(s.broker.patterns)
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
	cl.mu.Unlock()
	b := cl.srv.broker
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case on && !had:
		if b.shards[string(name)] == nil {
			b.shards[string(name)] = map[*client]struct{}{}
		}
		b.shards[string(name)][cl] = struct{}{}
	case !on && had:
		delete(b.shards[string(name)], cl)
		if len(b.shards[string(name)]) == 0 {
			delete(b.shards, string(name))
		}
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

// PublishShard implements command.Server.
func (s *Server) PublishShard(channel, msg []byte) int {
	b := s.broker
	b.mu.RLock()
	defer b.mu.RUnlock()
	var enc [4][]byte
	n := 0
	for cl := range b.shards[string(channel)] {
		p := cl.Proto()
		if enc[p] == nil {
			w := resp.NewWriter(p)
			w.Push(3)
			w.BulkString("smessage")
			w.Bulk(channel)
			w.Bulk(msg)
			enc[p] = w.Bytes()
		}
		cl.push(enc[p])
		n++
	}
	return n
}

// ShardChannels implements command.Server.
func (s *Server) ShardChannels(pattern []byte) []string {
	b := s.broker
	b.mu.RLock()
	var out []string
	for ch := range b.shards {
		if pattern == nil || glob.Match(pattern, []byte(ch), false) {
			out = append(out, ch)
		}
	}
	b.mu.RUnlock()
	slices.Sort(out)
	return out
}

// ShardNumSub implements command.Server.
func (s *Server) ShardNumSub(channel []byte) int {
	s.broker.mu.RLock()
	defer s.broker.mu.RUnlock()
	return len(s.broker.shards[string(channel)])
}
