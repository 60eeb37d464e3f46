package net

import (
	"slices"
	"sync"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/glob"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/net/resp"
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
}

func newBroker() *broker {
	return &broker{channels: map[string]map[*client]struct{}{}, patterns: map[string]map[*client]struct{}{}}
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
	subs, psubs := cl.subs, cl.psubs
	cl.subs, cl.psubs = nil, nil
	cl.mu.Unlock()
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
	return len(cl.subs) + len(cl.psubs)
}

// pubsubCommands are the Pub/Sub commands (connection commands).
func pubsubCommands() []*command.Spec {
	conn := command.Conn
	sub := command.Conn | command.PubSubContext
	return []*command.Spec{
		{Name: "subscribe", Arity: -2, Flags: sub, Parse: subParser(false, true)},
		{Name: "unsubscribe", Arity: -1, Flags: sub, Parse: subParser(false, false)},
		{Name: "psubscribe", Arity: -2, Flags: sub, Parse: subParser(true, true)},
		{Name: "punsubscribe", Arity: -1, Flags: sub, Parse: subParser(true, false)},
		{Name: "publish", Arity: 3, Flags: conn | command.Fast, Parse: parsePublish},
		{Name: "pubsub", Arity: -2, Subcommands: []*command.Spec{
			{Name: "channels", Arity: -2, Flags: conn, Parse: parsePubsubChannels},
			{Name: "numsub", Arity: -2, Flags: conn, Parse: parsePubsubNumsub},
			{Name: "numpat", Arity: 2, Flags: conn, Parse: parsePubsubNumpat},
		}},
	}
}

// SUBSCRIBE channel..., UNSUBSCRIBE [channel...], PSUBSCRIBE pattern...,
// PUNSUBSCRIBE [pattern...]: one confirmation per name.
type subscribe struct {
	names   [][]byte
	pattern bool
	sub     bool
}

func subParser(pattern, sub bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return subscribe{names: args[1:], pattern: pattern, sub: sub}, nil
	}
}

func (x subscribe) Run(c *command.Ctx) error {
	cl := c.Client.(*client)
	kind := map[[2]bool]string{{false, true}: "subscribe", {false, false}: "unsubscribe",
		{true, true}: "psubscribe", {true, false}: "punsubscribe"}[[2]bool{x.pattern, x.sub}]
	cl.mu.Lock()
	set := &cl.subs
	if x.pattern {
		set = &cl.psubs
	}
	if *set == nil {
		*set = map[string]struct{}{}
	}
	names := x.names
	if !x.sub && len(names) == 0 {
		for n := range *set {
			names = append(names, []byte(n))
		}
		slices.SortFunc(names, func(a, b []byte) int { return compareBytes(a, b) })
	}
	cl.mu.Unlock()
	if !x.sub && len(names) == 0 {
		c.W.Push(3)
		c.W.BulkString(kind)
		c.W.Null()
		c.W.Int(int64(cl.Subscriptions()))
		return nil
	}
	for _, n := range names {
		cl.mu.Lock()
		_, had := (*set)[string(n)]
		if x.sub {
			(*set)[string(n)] = struct{}{}
		} else {
			delete(*set, string(n))
		}
		count := len(cl.subs) + len(cl.psubs)
		cl.mu.Unlock()
		// The broker's lock is never taken under the client's (Publish
		// takes them the other way round).
		switch {
		case x.sub && !had:
			cl.srv.broker.add(x.pattern, string(n), cl)
		case !x.sub && had:
			cl.srv.broker.remove(x.pattern, string(n), cl)
		}
		c.W.Push(3)
		c.W.BulkString(kind)
		c.W.Bulk(n)
		c.W.Int(int64(count))
	}
	return nil
}

func compareBytes(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

// PUBLISH channel message
type publish struct{ channel, msg []byte }

func parsePublish(args [][]byte) (command.Runner, error) { return publish{args[1], args[2]}, nil }

func (x publish) Run(c *command.Ctx) error {
	c.W.Int(int64(c.Client.(*client).srv.Publish(x.channel, x.msg)))
	return nil
}

// PUBSUB CHANNELS [pattern]
type pubsubChannels struct{ pattern []byte }

func parsePubsubChannels(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return pubsubChannels{}, nil
	case 3:
		return pubsubChannels{args[2]}, nil
	}
	return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try PUBSUB HELP.", args[1])
}

func (x pubsubChannels) Run(c *command.Ctx) error {
	b := c.Client.(*client).srv.broker
	b.mu.RLock()
	var out []string
	for ch := range b.channels {
		if x.pattern == nil || glob.Match(x.pattern, []byte(ch), false) {
			out = append(out, ch)
		}
	}
	b.mu.RUnlock()
	slices.Sort(out)
	c.W.Array(len(out))
	for _, ch := range out {
		c.W.BulkString(ch)
	}
	return nil
}

// PUBSUB NUMSUB [channel ...]
type pubsubNumsub struct{ channels [][]byte }

func parsePubsubNumsub(args [][]byte) (command.Runner, error) { return pubsubNumsub{args[2:]}, nil }

func (x pubsubNumsub) Run(c *command.Ctx) error {
	b := c.Client.(*client).srv.broker
	b.mu.RLock()
	defer b.mu.RUnlock()
	c.W.Array(2 * len(x.channels))
	for _, ch := range x.channels {
		c.W.Bulk(ch)
		c.W.Int(int64(len(b.channels[string(ch)])))
	}
	return nil
}

// PUBSUB NUMPAT
type pubsubNumpat struct{}

func parsePubsubNumpat([][]byte) (command.Runner, error) { return pubsubNumpat{}, nil }

func (pubsubNumpat) Run(c *command.Ctx) error {
	b := c.Client.(*client).srv.broker
	b.mu.RLock()
	defer b.mu.RUnlock()
	c.W.Int(int64(len(b.patterns)))
	return nil
}
