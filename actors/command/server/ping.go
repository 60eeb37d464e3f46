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
	if p.msg == nil {
		c.W.Simple("PONG")
	} else {
		c.W.Bulk(p.msg)
	}
	return nil
}
