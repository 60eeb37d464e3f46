package pubsub

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SUBSCRIBE channel [channel ...], UNSUBSCRIBE [channel ...],
// PSUBSCRIBE pattern [pattern ...], PUNSUBSCRIBE [pattern ...]: one
// confirmation per name with the client's subscription count after it; an
// UNSUBSCRIBE without names drops every subscription of its kind (in byte
// order), and with none it confirms a null name.
//
// SSUBSCRIBE / SUNSUBSCRIBE are the same for shard channels, whose count
// is apart.
type subscribe struct {
	names   [][]byte
	pattern bool
	shard   bool
	sub     bool
}

func subParser(pattern, sub bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return subscribe{names: args[1:], pattern: pattern, sub: sub}, nil
	}
}

func (x subscribe) kind() string {
	k := "subscribe"
	if !x.sub {
		k = "unsubscribe"
	}
	if x.pattern {
		k = "p" + k
	}
	if x.shard {
		k = "s" + k
	}
	return k
}

func (x subscribe) Run(c *command.Ctx) error {
	if x.shard && x.sub && c.Tx != nil {
		// Inside EXEC, as Redis 7.0 (SUBSCRIBE and PSUBSCRIBE are
		// still allowed there, for old clients).
		return rerr.Errorf("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client")
	}
	names := x.names
	if !x.sub && len(names) == 0 {
		if x.shard {
			names = c.Client.Subs.ShardSubscribed()
		} else {
			names = c.Client.Subs.Subscribed(x.pattern)
		}
	}
	if len(names) == 0 {
		c.W.Push(3)
		c.W.BulkString(x.kind())
		c.W.Null()
		if x.shard {
			c.W.Int(int64(len(c.Client.Subs.ShardSubscribed())))
		} else {
			c.W.Int(int64(c.Client.Subs.Subscriptions() - len(c.Client.Subs.ShardSubscribed())))
		}
		return nil
	}
	for _, n := range names {
		var count int
		switch {
		case x.shard && x.sub:
			count = c.Client.Subs.ShardSubscribe(n)
		case x.shard:
			count = c.Client.Subs.ShardUnsubscribe(n)
		case x.sub:
			count = c.Client.Subs.Subscribe(x.pattern, n)
		default:
			count = c.Client.Subs.Unsubscribe(x.pattern, n)
		}
		c.W.Push(3)
		c.W.BulkString(x.kind())
		c.W.Bulk(n)
		c.W.Int(int64(count))
	}
	return nil
}

func shardSubParser(sub bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		return subscribe{names: args[1:], shard: true, sub: sub}, nil
	}
}
