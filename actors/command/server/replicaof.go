package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// REPLICAOF host port / SLAVEOF: rekv is always a master. NO ONE (stop
// replicating, which it never does) answers OK as Redis does; a master
// to follow is refused until rekv can replicate.
type replicaOf struct{ noOne bool }

func parseReplicaOf(args [][]byte) (command.Runner, error) {
	if command.Is(args[1], "no") && command.Is(args[2], "one") {
		return replicaOf{noOne: true}, nil
	}
	if p, ok := resp.ParseInt(args[2]); !ok || p < 0 || p > 65535 {
		return nil, rerr.Errorf("ERR Invalid master port")
	}
	return replicaOf{}, nil
}

func (r replicaOf) Run(c *command.Ctx) error {
	if c.ClusterMode() {
		return rerr.Errorf("ERR REPLICAOF not allowed in cluster mode.")
	}
	if !r.noOne {
		return rerr.Errorf("ERR rekv cannot replicate from a master yet: only REPLICAOF NO ONE is accepted")
	}
	c.W.OK()
	return nil
}
