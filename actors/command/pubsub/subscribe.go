package pubsub

import "github.com/rekv/rekv/actors/command"

// SUBSCRIBE channel [channel ...], UNSUBSCRIBE [channel ...],
// PSUBSCRIBE pattern [pattern ...], PUNSUBSCRIBE [pattern ...]: one
// confirmation per name with the client's subscription count after it; an
// UNSUBSCRIBE without names drops every subscription of its kind (in byte
// order), and with none it confirms a null name.
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

func (x subscribe) kind() string {
	k := "subscribe"
	if !x.sub {
		k = "unsubscribe"
	}
	if x.pattern {
		k = "p" + k
	}
	return k
}

func (x subscribe) Run(c *command.Ctx) error {
	names := x.names
	if !x.sub && len(names) == 0 {
		names = c.Client.Subscribed(x.pattern)
	}
	if len(names) == 0 {
		c.W.Push(3)
		c.W.BulkString(x.kind())
		c.W.Null()
		c.W.Int(int64(c.Client.Subscriptions()))
		return nil
	}
	for _, n := range names {
		var count int
		if x.sub {
			count = c.Client.Subscribe(x.pattern, n)
		} else {
			count = c.Client.Unsubscribe(x.pattern, n)
		}
		c.W.Push(3)
		c.W.BulkString(x.kind())
		c.W.Bulk(n)
		c.W.Int(int64(count))
	}
	return nil
}
