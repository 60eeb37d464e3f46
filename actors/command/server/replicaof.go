package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// REPLICAOF host port / SLAVEOF: follow a master (package repl), or with
// NO ONE stop following one and become a master, keeping the data.
type replicaOf struct {
	host string // "": NO ONE
	port int
}

func parseReplicaOf(args [][]byte) (command.Runner, error) {
	if command.Is(args[1], "no") && command.Is(args[2], "one") {
		return replicaOf{}, nil
	}
	p, ok := resp.ParseInt(args[2])
	if !ok || p < 0 || p > 65535 {
		return nil, rerr.Errorf("ERR Invalid master port")
	}
	return replicaOf{host: string(args[1]), port: int(p)}, nil
}

func (r replicaOf) Run(c *command.Ctx) error {
	if c.ClusterMode() {
		return rerr.Errorf("ERR REPLICAOF not allowed in cluster mode.")
	}
	status, err := c.Server.Node.ReplicaOf(r.host, r.port)
	if err != nil {
		return err
	}
	c.W.Simple(status)
	return nil
}
