package pubsub

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// PUBSUB CHANNELS [pattern]: active channels (with at least one
// subscriber), in byte order, those matching pattern if given.
type channels struct{ pattern []byte }

func parseChannels(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return channels{}, nil
	case 3:
		return channels{args[2]}, nil
	}
	return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try PUBSUB HELP.", args[1])
}

func (x channels) Run(c *command.Ctx) error {
	out := c.Server.Broker.Channels(c.Namespace(), x.pattern)
	c.W.Array(len(out))
	for _, ch := range out {
		c.W.BulkString(ch)
	}
	return nil
}

// PUBSUB NUMSUB [channel ...]: each channel and its subscriber count.
type numsub struct{ channels [][]byte }

func parseNumsub(args [][]byte) (command.Runner, error) { return numsub{args[2:]}, nil }

func (x numsub) Run(c *command.Ctx) error {
	c.W.Array(2 * len(x.channels))
	for _, ch := range x.channels {
		c.W.Bulk(ch)
		c.W.Int(int64(c.Server.Broker.NumSub(c.Namespace(), ch)))
	}
	return nil
}

// PUBSUB NUMPAT: how many patterns have subscribers.
type numpat struct{}

func parseNumpat([][]byte) (command.Runner, error) { return numpat{}, nil }

func (numpat) Run(c *command.Ctx) error {
	c.W.Int(int64(c.Server.Broker.NumPat(c.Namespace())))
	return nil
}

// PUBSUB SHARDCHANNELS [pattern] and SHARDNUMSUB [channel ...]: the same
// for shard channels.
type shardChannels struct{ pattern []byte }

func parseShardChannels(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return shardChannels{}, nil
	case 3:
		return shardChannels{args[2]}, nil
	}
	return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try PUBSUB HELP.", args[1])
}

func (x shardChannels) Run(c *command.Ctx) error {
	out := c.Server.Broker.ShardChannels(c.Namespace(), x.pattern)
	c.W.Array(len(out))
	for _, ch := range out {
		c.W.BulkString(ch)
	}
	return nil
}

type shardNumsub struct{ channels [][]byte }

func parseShardNumsub(args [][]byte) (command.Runner, error) { return shardNumsub{args[2:]}, nil }

func (x shardNumsub) Run(c *command.Ctx) error {
	c.W.Array(2 * len(x.channels))
	for _, ch := range x.channels {
		c.W.Bulk(ch)
		c.W.Int(int64(c.Server.Broker.ShardNumSub(c.Namespace(), ch)))
	}
	return nil
}
