package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SLOWLOG GET [count] | LEN | RESET | HELP (what is logged: net/slowlog.go).
type slowlogGet struct{ count int }

var errSlowCount = &rerr.Error{Msg: "ERR count should be greater than or equal to -1"}

func parseSlowlogGet(args [][]byte) (command.Runner, error) {
	switch len(args) {
	case 2:
		return slowlogGet{count: 10}, nil
	case 3:
		n, err := command.Int(args[2])
		if err != nil || n < -1 {
			return nil, errSlowCount
		}
		return slowlogGet{count: int(min(n, 1<<30))}, nil
	}
	return nil, rerr.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try SLOWLOG HELP.", args[1])
}

func (g slowlogGet) Run(c *command.Ctx) error {
	entries := c.Server.Diag.Slowlog(g.count)
	c.W.Array(len(entries))
	for _, e := range entries {
		c.W.Array(6)
		c.W.Int(e.ID)
		c.W.Int(e.Time)
		c.W.Int(e.Micros)
		c.W.Array(len(e.Args))
		for _, a := range e.Args {
			c.W.Bulk(a)
		}
		c.W.BulkString(e.Addr)
		c.W.BulkString(e.Name)
	}
	return nil
}

type slowlogLen struct{}

func parseSlowlogLen([][]byte) (command.Runner, error) { return slowlogLen{}, nil }

func (slowlogLen) Run(c *command.Ctx) error {
	c.W.Int(int64(c.Server.Diag.SlowlogLen()))
	return nil
}

type slowlogReset struct{}

func parseSlowlogReset([][]byte) (command.Runner, error) { return slowlogReset{}, nil }

func (slowlogReset) Run(c *command.Ctx) error {
	c.Server.Diag.SlowlogReset()
	c.W.OK()
	return nil
}

type slowlogHelp struct{}

func parseSlowlogHelp([][]byte) (command.Runner, error) { return slowlogHelp{}, nil }

func (slowlogHelp) Run(c *command.Ctx) error {
	lines := []string{
		"SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"GET [<count>]",
		"    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
		"    Entries are made of:",
		"    id, timestamp, time in microseconds, arguments array, client IP and port,",
		"    client name",
		"LEN",
		"    Return the length of the slowlog.",
		"RESET",
		"    Reset the slowlog.",
		"HELP",
		"    Prints this help.",
	}
	c.W.SimpleArray(lines)
	return nil
}
