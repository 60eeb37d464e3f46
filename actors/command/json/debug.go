package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.DEBUG MEMORY key [path]: the bytes RedisJSON's in-memory form of
// each match would take (rjson.Memory; 0 or an empty array for a
// missing key). JSON.DEBUG HELP lists the subcommands.
type debug struct {
	help bool
	key  []byte
	path path
}

func parseDebug(args [][]byte) (command.Runner, error) {
	switch {
	case command.Is(args[1], "help"):
		return debug{help: true}, nil
	case command.Is(args[1], "memory"):
		if len(args) < 3 {
			return nil, rerr.ErrArity("json.debug")
		}
		d := debug{key: args[2], path: rootPath}
		if len(args) > 3 {
			d.path = newPath(args[3])
		}
		return d, nil
	}
	return nil, rerr.Errorf("ERR unknown subcommand - try `JSON.DEBUG HELP`")
}

func (dbg debug) Run(c *command.Ctx) error {
	if dbg.help {
		c.W.Array(2)
		c.W.BulkString("MEMORY <key> [path] - reports memory usage")
		c.W.BulkString("HELP                - this message")
		return nil
	}
	d, err := open(c, dbg.key)
	if err != nil {
		return err
	}
	var vals []*rjson.Value
	if d != nil {
		q, err := dbg.path.query()
		if err != nil {
			return err
		}
		vals = q.Values(d.Root)
	}
	if dbg.path.legacy {
		switch {
		case d == nil:
			c.W.Int(0)
		case len(vals) == 0:
			return errPath(dbg.path.text)
		default:
			c.W.Int(rjson.Memory(vals[0]))
		}
		return nil
	}
	c.W.Array(len(vals))
	for _, v := range vals {
		c.W.Int(rjson.Memory(v))
	}
	return nil
}
