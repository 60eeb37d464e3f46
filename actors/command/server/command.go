package server

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/glob"
	"github.com/rekv/rekv/actors/rerr"
)

// COMMAND [COUNT | INFO [name ...] | DOCS [name ...] | LIST [FILTERBY
// MODULE name | ACLCAT category | PATTERN pattern] | GETKEYS command
// [arg ...]]. COMMAND INFO gives Redis 7's ACL categories
// (docs/acl.json); key specifications, tips and GETKEYSANDFLAGS are not
// kept.
type commandCmd struct {
	sub    string
	names  [][]byte
	filter string // LIST FILTERBY: module, aclcat or pattern
	value  []byte
}

func parseCommand(args [][]byte) (command.Runner, error) {
	if len(args) == 1 {
		return commandCmd{sub: "info"}, nil
	}
	sub := strings.ToLower(string(args[1]))
	switch sub {
	case "count":
		if len(args) != 2 {
			return nil, rerr.ErrArity("command|" + sub)
		}
	case "list":
		switch {
		case len(args) == 2:
		case len(args) == 5 && command.Is(args[2], "filterby"):
			f := strings.ToLower(string(args[3]))
			if f != "module" && f != "aclcat" && f != "pattern" {
				return nil, rerr.ErrSyntax
			}
			return commandCmd{sub: sub, filter: f, value: args[4]}, nil
		default:
			return nil, rerr.ErrSyntax
		}
	case "getkeys":
		if len(args) < 4 {
			return nil, rerr.ErrArity("command|getkeys")
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
		acl, err := loadACL()
		if err != nil {
			return err
		}
		var names []string
		for _, s := range all {
			for _, sp := range append([]*command.Spec{s}, s.Subcommands...) {
				name := sp.FullName()
				switch cc.filter {
				case "module":
					continue // no modules
				case "aclcat":
					if !slices.Contains(acl[name], "@"+strings.ToLower(string(cc.value))) {
						continue
					}
				case "pattern":
					if !glob.Match(cc.value, []byte(name), true) {
						continue
					}
				}
				names = append(names, name)
			}
		}
		c.W.Array(len(names))
		for _, n := range names {
			c.W.BulkString(n)
		}
	case "getkeys":
		spec, err := c.Registry.Resolve(cc.names)
		switch {
		case c.Registry.Lookup(cc.names[0]) == nil:
			return rerr.Errorf("ERR Invalid command specified")
		case err != nil:
			return rerr.Errorf("ERR Invalid number of arguments specified for command")
		}
		if spec.KeysFunc == nil && spec.Keys.First <= 0 {
			return rerr.Errorf("ERR The command has no key arguments")
		}
		idx := spec.KeyIndexes(cc.names, nil)
		for _, i := range idx {
			if i <= 0 || i >= len(cc.names) {
				return rerr.Errorf("ERR Invalid arguments specified for command")
			}
		}
		if spec.KeysFunc != nil {
			if _, perr := spec.Parse(cc.names); perr != nil && len(idx) == 0 {
				return rerr.Errorf("ERR Invalid arguments specified for command")
			}
		}
		c.W.Array(len(idx))
		for _, i := range idx {
			c.W.Bulk(cc.names[i])
		}
	case "info":
		acl, err := loadACL()
		if err != nil {
			return err
		}
		if len(cc.names) == 0 {
			c.W.Array(len(all))
			for _, s := range all {
				writeInfo(c, s, acl)
			}
			return nil
		}
		c.W.Array(len(cc.names))
		for _, n := range cc.names {
			if s := c.Registry.Lookup(n); s != nil {
				writeInfo(c, s, acl)
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
func writeInfo(c *command.Ctx, s *command.Spec, acl map[string][]string) {
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
	cats := acl[s.FullName()]
	c.W.Set(len(cats))
	for _, cat := range cats {
		c.W.Simple(cat)
	}
	c.W.Set(0) // tips
	c.W.Array(0)
	c.W.Array(len(s.Subcommands))
	for _, sub := range s.Subcommands {
		writeInfo(c, sub, acl)
	}
}

// loadACL returns the ACL categories of every command by full name.
func loadACL() (map[string][]string, error) {
	var m map[string][]string
	err := json.Unmarshal(docsACL, &m)
	return m, err
}
