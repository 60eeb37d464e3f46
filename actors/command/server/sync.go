package server

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// REPLCONF option value [option value ...]: what a replica (or redis-cli
// --rdb) says of itself before SYNC. ACK and GETACK get no reply here, as
// from a replica Redis does not answer them either.
type replConf struct{ pairs [][2]string }

func parseReplConf(args [][]byte) (command.Runner, error) {
	if len(args)%2 == 0 {
		return nil, rerr.ErrSyntax
	}
	r := replConf{}
	for i := 1; i+1 < len(args); i += 2 {
		r.pairs = append(r.pairs, [2]string{strings.ToLower(string(args[i])), string(args[i+1])})
	}
	return r, nil
}

func (r replConf) Run(c *command.Ctx) error {
	for _, p := range r.pairs {
		switch p[0] {
		case "ack", "getack", "fack":
			return nil // nothing written: no reply
		case "rdb-filter-only":
			// Redis's one filter: the function libraries alone
			// (redis-cli --functions-rdb); none: an empty file.
			for _, f := range strings.Fields(p[1]) {
				if !strings.EqualFold(f, "functions") {
					return rerr.Errorf("ERR Unsupported rdb-filter-only option: %s", f)
				}
			}
			c.Client.Session.SetReplConf(p[0], strings.ToLower(strings.TrimSpace(p[1])))
		case "listening-port", "ip-address", "capa", "rdb-only":
			c.Client.Session.SetReplConf(p[0], p[1])
		default:
			return rerr.Errorf("ERR Unrecognized REPLCONF option: %s", p[0])
		}
	}
	c.W.OK()
	return nil
}

// SYNC / PSYNC replid offset: a replica's sync (c.Server.Node.SendRDB).
type syncCmd struct {
	psync    bool
	replID   string
	offset   int64
	failover bool // PSYNC replid offset FAILOVER
}

func parseSync([][]byte) (command.Runner, error) { return syncCmd{}, nil }

func parsePsync(args [][]byte) (command.Runner, error) {
	off, err := command.Int(args[2])
	if err != nil {
		off = -1 // "?" -1, or garbage: a full sync
	}
	s := syncCmd{psync: true, replID: string(args[1]), offset: off}
	if len(args) > 3 {
		if !command.Is(args[3], "failover") || len(args) > 4 {
			return nil, rerr.ErrSyntax
		}
		s.failover = true
	}
	return s, nil
}

func (s syncCmd) Run(c *command.Ctx) error {
	return c.Server.Node.SendRDB(c.Client.Conn, command.ReplHello{PSync: s.psync, ReplID: s.replID, Offset: s.offset, Failover: s.failover})
}
