package pubsub

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/namespaces"
)

// PUBLISH channel message: replies how many subscribers (channel and
// pattern) received it. Inside a transaction (EXEC, a script) the message
// is delivered after the commit, and the reply counts the subscribers it
// will reach.
//
// SPUBLISH shardchannel message is the same for shard channels (a
// separate name space, delivered as "smessage"; one node is one shard).
//
// Channels under namespaces.ReservedPrefix are rekv's replication's own:
// publishing to them is refused.
type publish struct {
	channel, msg []byte
	shard        bool
}

func parsePublish(args [][]byte) (command.Runner, error) {
	return publish{args[1], args[2], false}, nil
}

func parseSPublish(args [][]byte) (command.Runner, error) {
	return publish{args[1], args[2], true}, nil
}

func (x publish) Run(c *command.Ctx) error {
	if bytes.HasPrefix(x.channel, []byte(namespaces.ReservedPrefix)) {
		return rerr.Errorf("ERR the channels starting with %s are reserved for rekv's replication", namespaces.ReservedPrefix)
	}
	if c.Tx != nil {
		c.Tx.Journal().AddMessage(c.Namespace(), x.channel, x.msg, x.shard)
		if x.shard {
			c.W.Int(int64(c.Server.Broker.ShardNumSub(c.Namespace(), x.channel)))
		} else {
			c.W.Int(int64(c.Server.Broker.Receivers(c.Namespace(), x.channel)))
		}
		return nil
	}
	if x.shard {
		c.W.Int(int64(c.Server.Broker.PublishShard(c.Namespace(), x.channel, x.msg)))
		return nil
	}
	c.W.Int(int64(c.Server.Broker.Publish(c.Namespace(), x.channel, x.msg)))
	return nil
}
