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
	channels map[string]map[Subscriber]struct{}
	patterns map[string]map[Subscriber]struct{}
	shards   map[string]map[Subscriber]struct{} // SSUBSCRIBE: a name space of its own
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
	return &Broker{channels: map[string]map[Subscriber]struct{}{}, patterns: map[string]map[Subscriber]struct{}{},
		shards: map[string]map[Subscriber]struct{}{}}
}

func (b *Broker) table(k Kind) map[string]map[Subscriber]struct{} {
	switch k {
	case Pattern:
		return b.patterns
	case ShardChannel:
		return b.shards
	}
	return b.channels
}

// Add subscribes s to name in table k.
func (b *Broker) Add(k Kind, name string, s Subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(k)
	if t[name] == nil {
		t[name] = map[Subscriber]struct{}{}
	}
	t[name][s] = struct{}{}
}

// Remove unsubscribes s from the names in table k.
func (b *Broker) Remove(k Kind, s Subscriber, names ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.table(k)
	for _, name := range names {
		delete(t[name], s)
		if len(t[name]) == 0 {
			delete(t, name)
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

// Publish delivers msg to the channel's subscribers and to matching
// patterns', and returns how many received it (PUBLISH).
func (b *Broker) Publish(channel, msg []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := deliver(b.channels[string(channel)], "message", channel, msg)
	for pat, set := range b.patterns {
		if !glob.Match([]byte(pat), channel, false) {
			continue
		}
		for s := range set {
			s.Deliver(message(s.Proto(), "pmessage", true, pat, channel, msg))
			n++
		}
	}
	return n
}

// PublishShard delivers msg to the shard channel's subscribers
// (SPUBLISH).
func (b *Broker) PublishShard(channel, msg []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return deliver(b.shards[string(channel)], "smessage", channel, msg)
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

// names returns the names of table k matching pattern (nil: all), sorted.
func (b *Broker) names(k Kind, pattern []byte) []string {
	b.mu.RLock()
	var out []string
	for ch := range b.table(k) {
		if pattern == nil || glob.Match(pattern, []byte(ch), false) {
			out = append(out, ch)
		}
	}
	b.mu.RUnlock()
	slices.Sort(out)
	return out
}

// Channels returns the channels with subscribers matching pattern (nil:
// all), sorted (PUBSUB CHANNELS).
func (b *Broker) Channels(pattern []byte) []string { return b.names(Channel, pattern) }

// ShardChannels is Channels for shard channels (PUBSUB SHARDCHANNELS).
func (b *Broker) ShardChannels(pattern []byte) []string { return b.names(ShardChannel, pattern) }

// NumSub returns a channel's subscriber count (PUBSUB NUMSUB).
func (b *Broker) NumSub(channel []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.channels[string(channel)])
}

// ShardNumSub is NumSub for a shard channel (PUBSUB SHARDNUMSUB).
func (b *Broker) ShardNumSub(channel []byte) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.shards[string(channel)])
}

// NumPat returns how many patterns have subscribers (PUBSUB NUMPAT).
func (b *Broker) NumPat() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.patterns)
}

// Receivers returns how many subscribers PUBLISH to channel would reach
// now (the channel's and matching patterns').
func (b *Broker) Receivers(channel []byte) int {
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
