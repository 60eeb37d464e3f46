package state

import (
	"slices"
	"sync"

	"github.com/rekv/rekv/glob"
	"github.com/rekv/rekv/resp"
)

// Pub/Sub involves no storage: the broker maps channels, patterns and
// shard channels to their subscribers, and PUBLISH hands each subscriber
// the encoded message (Subscriber.Deliver), which the network front queues
// right after the replies of the commands that subscriber had sent before,
// so a SUBSCRIBE's confirmation always precedes its messages.
//
// Every name lives in a namespace (package namespaces; 0: the default
// one): a subscriber hears what is published in its own namespace only,
// and a pattern matches its own namespace's channels only.

// Subscriber is a connection as the broker sees it.
type Subscriber interface {
	// Proto is the connection's protocol (2 or 3): how messages are
	// encoded for it.
	Proto() int
	// Deliver queues an encoded message for the connection.
	Deliver(msg []byte)
}

// Broker is the Pub/Sub table. Its methods are safe for concurrent use;
// none calls a Subscriber's method other than Proto and Deliver, and none
// holds its lock while the caller holds a subscriber's.
type Broker struct {
	mu       sync.RWMutex
	channels map[Name]map[Subscriber]struct{}
	patterns map[Name]map[Subscriber]struct{}
	shards   map[Name]map[Subscriber]struct{} // SSUBSCRIBE: a name space of its own
}

// Name is a channel, pattern or shard channel of a namespace.
type Name struct {
	NS   uint32
	Name string
}

// Kind names one of the broker's three tables.
type Kind int

// The broker's tables.
const (
	Channel Kind = iota
	Pattern
	ShardChannel
)

// NewBroker returns an empty broker.
func NewBroker() *Broker {
	return &Broker{channels: map[Name]map[Subscriber]struct{}{}, patterns: map[Name]map[Subscriber]struct{}{},
		shards: map[Name]map[Subscriber]struct{}{}}
}

func (b *Broker) table(k Kind) map[Name]map[Subscriber]struct{} {
	switch k {
	case Pattern:
		return b.patterns
	case ShardChannel:
		return b.shards
	}
	return b.channels
}

// Add subscribes s to name of namespace ns in table k.
func (b *Broker) Add(k Kind, ns uint32, name string, s Subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(k)
	n := Name{ns, name}
	if t[n] == nil {
		t[n] = map[Subscriber]struct{}{}
	}
	t[n][s] = struct{}{}
}

// Remove unsubscribes s from the names of namespace ns in table k.
func (b *Broker) Remove(k Kind, ns uint32, s Subscriber, names ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(k)
	for _, name := range names {
		n := Name{ns, name}
		delete(t[n], s)
		if len(t[n]) == 0 {
			delete(t, n)
		}
	}
}

// message encodes a Pub/Sub push for protocol proto.
func message(proto int, kind string, withPattern bool, pattern string, channel, msg []byte) []byte {
	w := resp.NewWriter(proto)
	if withPattern {
		w.Push(4)
		w.BulkString(kind)
		w.BulkString(pattern)
	} else {
		w.Push(3)
		w.BulkString(kind)
	}
	w.Bulk(channel)
	w.Bulk(msg)
	return w.Bytes()
}

// Publish delivers msg to the subscribers of namespace ns's channel and
// to its matching patterns', and returns how many received it (PUBLISH).
func (b *Broker) Publish(ns uint32, channel, msg []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := deliver(b.channels[Name{ns, string(channel)}], "message", channel, msg)
	for pat, set := range b.patterns {
		if pat.NS != ns || !glob.Match([]byte(pat.Name), channel, false) {
			continue
		}
		for s := range set {
			s.Deliver(message(s.Proto(), "pmessage", true, pat.Name, channel, msg))
			n++
		}
	}
	return n
}

// PublishShard delivers msg to the subscribers of namespace ns's shard
// channel (SPUBLISH).
func (b *Broker) PublishShard(ns uint32, channel, msg []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return deliver(b.shards[Name{ns, string(channel)}], "smessage", channel, msg)
}

// deliver sends msg on channel to every subscriber in set, encoded once
// per protocol, and returns how many it reached.
func deliver(set map[Subscriber]struct{}, kind string, channel, msg []byte) int {
	var enc [4][]byte // by protocol
	for s := range set {
		p := s.Proto()
		if enc[p] == nil {
			enc[p] = message(p, kind, false, "", channel, msg)
		}
		s.Deliver(enc[p])
	}
	return len(set)
}

// names returns the names of namespace ns in table k matching pattern
// (nil: all), sorted.
func (b *Broker) names(k Kind, ns uint32, pattern []byte) []string {
	b.mu.RLock()
	var out []string
	for ch := range b.table(k) {
		if ch.NS == ns && (pattern == nil || glob.Match(pattern, []byte(ch.Name), false)) {
			out = append(out, ch.Name)
		}
	}
	b.mu.RUnlock()
	slices.Sort(out)
	return out
}

// Channels returns namespace ns's channels with subscribers matching
// pattern (nil: all), sorted (PUBSUB CHANNELS).
func (b *Broker) Channels(ns uint32, pattern []byte) []string { return b.names(Channel, ns, pattern) }

// ShardChannels is Channels for shard channels (PUBSUB SHARDCHANNELS).
func (b *Broker) ShardChannels(ns uint32, pattern []byte) []string {
	return b.names(ShardChannel, ns, pattern)
}

// NumSub returns the subscriber count of namespace ns's channel (PUBSUB
// NUMSUB).
func (b *Broker) NumSub(ns uint32, channel []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.channels[Name{ns, string(channel)}])
}

// ShardNumSub is NumSub for a shard channel (PUBSUB SHARDNUMSUB).
func (b *Broker) ShardNumSub(ns uint32, channel []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.shards[Name{ns, string(channel)}])
}

// NumPat returns how many of namespace ns's patterns have subscribers
// (PUBSUB NUMPAT).
func (b *Broker) NumPat(ns uint32) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for p := range b.patterns {
		if p.NS == ns {
			n++
		}
	}
	return n
}

// Receivers returns how many subscribers PUBLISH to namespace ns's
// channel would reach now (the channel's and matching patterns').
func (b *Broker) Receivers(ns uint32, channel []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := len(b.channels[Name{ns, string(channel)}])
	for pat, set := range b.patterns {
		if pat.NS == ns && glob.Match([]byte(pat.Name), channel, false) {
			n += len(set)
		}
	}
	return n
}

// Totals returns how many channels and patterns have subscribers, in
// every namespace (INFO stats, /metrics).
func (b *Broker) Totals() (channels, patterns int) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.channels), len(b.patterns)
}
