package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// PING [message]
type ping struct{ msg []byte }

func parsePing(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 1:
		return ping{}, nil
	case 2:
		return ping{msg: args[1]}, nil
	}
	return nil, rerr.ErrArity("ping")
}

func (p ping) Run(c *command.Ctx) error {
	if c.W.Proto() == 2 && c.Client.Subs != nil && c.Client.Subs.Subscriptions() > 0 {
		// In RESP2 subscriber mode PING answers in the push shape.
		c.W.Array(2)
		c.W.BulkString("pong")
		c.W.Bulk(append([]byte{}, p.msg...))
		return nil
	}
	if p.msg == nil {
		c.W.Simple("PONG")
	} else {
		c.W.Bulk(p.msg)
	}
	return nil
}
