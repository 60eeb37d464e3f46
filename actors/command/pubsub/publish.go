package pubsub

import "github.com/rekv/rekv/actors/command"

// PUBLISH channel message: replies how many subscribers (channel and
// pattern) received it. Inside a transaction (EXEC, a script) the message
// is delivered after the commit, and the reply counts the subscribers it
// will reach.
type publish struct{ channel, msg []byte }

func parsePublish(args [][]byte) (command.Runner, error) { return publish{args[1], args[2]}, nil }

func (x publish) Run(c *command.Ctx) error {
	if c.Tx != nil {
		c.Tx.AddMessage(x.channel, x.msg)
		c.W.Int(int64(c.Server.Receivers(x.channel)))
		return nil
	}
	c.W.Int(int64(c.Server.Publish(x.channel, x.msg)))
	return nil
}
