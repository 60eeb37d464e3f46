package server

import (
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds]: hand
// the master role to a replica, as Redis 7.0 does (package repl): writes
// pause until a replica has everything, which then takes over, and this
// node follows it.
type failover struct {
	o command.FailoverOptions
}

func parseFailover(args [][]byte) (command.Runner, error) {
	var f failover
	for i := 1; i < len(args); i++ {
		switch {
		case command.Is(args[i], "to") && i+2 < len(args) && f.o.Host == "":
			p, ok := resp.ParseInt(args[i+2])
			if !ok || p < 0 || p > 65535 {
				return nil, rerr.Errorf("ERR Invalid port")
			}
			f.o.Host, f.o.Port = string(args[i+1]), int(p)
			i += 2
		case command.Is(args[i], "timeout") && i+1 < len(args) && f.o.Timeout == 0:
			ms, ok := resp.ParseInt(args[i+1])
			if !ok || ms <= 0 {
				return nil, rerr.Errorf("ERR FAILOVER timeout must be greater than 0")
			}
			f.o.Timeout = time.Duration(min(ms, 1<<40)) * time.Millisecond
			i++
		case command.Is(args[i], "force") && !f.o.Force:
			f.o.Force = true
		case command.Is(args[i], "abort") && !f.o.Abort:
			f.o.Abort = true
		default:
			return nil, rerr.ErrSyntax
		}
	}
	if f.o.Abort && (f.o.Host != "" || f.o.Force || f.o.Timeout != 0) {
		return nil, rerr.Errorf("ERR FAILOVER abort cannot be used with other options.")
	}
	if f.o.Force && (f.o.Timeout == 0 || f.o.Host == "") {
		return nil, rerr.Errorf("ERR FAILOVER with force option requires both a timeout and target HOST and IP.")
	}
	return f, nil
}

func (f failover) Run(c *command.Ctx) error {
	if c.ClusterMode() {
		return rerr.Errorf("ERR FAILOVER not allowed in cluster mode.")
	}
	if err := c.Server.Node.Failover(f.o); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
