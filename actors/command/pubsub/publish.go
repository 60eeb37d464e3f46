package pubsub

import "github.com/rekv/rekv/actors/command"

// PUBLISH channel message: replies how many subscribers (channel and
// pattern) received it.
type publish struct{ channel, msg []byte }

func parsePublish(args [][]byte) (command.Runner, error) { return publish{args[1], args[2]}, nil }

func (x publish) Run(c *command.Ctx) error {
	c.W.Int(int64(c.Server.Publish(x.channel, x.msg)))
	return nil
}
