package server

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// COMMAND [COUNT | INFO [name ...] | DOCS [name ...] | LIST]
type commandCmd struct {
	sub   string
	names [][]byte
}

func parseCommand(args [][]byte) (command.Runner, error) {
	if len(args) == 1 {
		return commandCmd{sub: "info"}, nil
	}
	sub := strings.ToLower(string(args[1]))
	switch sub {
	case "count", "list":
		if len(args) != 2 {
			return nil, rerr.ErrArity("command|" + sub)
		}
	case "info", "docs":
	default:
		return nil, rerr.ErrUnknownSubcommand("command", args[1])
	}
	return commandCmd{sub: sub, names: args[2:]}, nil
}

func (cc commandCmd) Run(c *command.Ctx) error {
	all := c.Registry.All()
	switch cc.sub {
	case "count":
		c.W.Int(int64(len(all)))
	case "list":
		c.W.Array(len(all))
		for _, s := range all {
			c.W.BulkString(s.Name)
		}
	case "info":
		if len(cc.names) == 0 {
			c.W.Array(len(all))
			for _, s := range all {
				writeInfo(c, s)
			}
			return nil
		}
		c.W.Array(len(cc.names))
		for _, n := range cc.names {
			if s := c.Registry.Lookup(n); s != nil {
				writeInfo(c, s)
			} else {
				c.W.NullArray()
			}
		}
	case "docs":
		d, err := loadDocs()
		if err != nil {
			return err
		}
		specs := all
		if len(cc.names) > 0 {
			specs = nil
			for _, n := range cc.names {
				if s := c.Registry.Lookup(n); s != nil {
					specs = append(specs, s)
				}
			}
		}
		c.W.Map(len(specs))
		for _, s := range specs {
			c.W.BulkString(s.Name)
			d.write(c, s, d.entries[s.Name])
		}
	}
	return nil
}

// writeInfo writes one COMMAND INFO entry in Redis 7's ten-field form.
func writeInfo(c *command.Ctx, s *command.Spec) {
	c.W.Array(10)
	c.W.BulkString(s.FullName())
	c.W.Int(int64(s.Arity))
	var flags []string
	if s.Flags&command.Write != 0 {
		flags = append(flags, "write")
	}
	if s.Flags&command.ReadOnly != 0 {
		flags = append(flags, "readonly")
	}
	if s.Flags&command.Fast != 0 {
		flags = append(flags, "fast")
	}
	c.W.Set(len(flags))
	for _, f := range flags {
		c.W.Simple(f)
	}
	c.W.Int(int64(s.Keys.First))
	c.W.Int(int64(s.Keys.Last))
	c.W.Int(int64(s.Keys.Step))
	c.W.Set(0) // ACL categories
	c.W.Set(0) // tips
	c.W.Array(0)
	c.W.Array(len(s.Subcommands))
	for _, sub := range s.Subcommands {
		writeInfo(c, sub)
	}
}
