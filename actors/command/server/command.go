package server

import (
	"slices"
	"strings"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/facts"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/glob"
)

// COMMAND [COUNT | INFO [name ...] | DOCS [name ...] | LIST [FILTERBY
// MODULE name | ACLCAT category | PATTERN pattern] | GETKEYS command
// [arg ...] | GETKEYSANDFLAGS command [arg ...]]. COMMAND INFO gives
// Redis 7's flags, ACL categories, tips and key specifications
// (each Spec's facts); GETKEYSANDFLAGS gives GETKEYS's keys
// with the flags of the key specification that finds each.
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
	case "getkeys", "getkeysandflags":
		if len(args) < 4 {
			return nil, rerr.ErrArity("command|" + sub)
		}
	case "help":
		if len(args) != 2 {
			return nil, rerr.ErrArity("command|help")
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
	case "help":
		c.W.SimpleArray([]string{
			"COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"(no subcommand)", "    Describes every command (as INFO does).",
			"COUNT", "    The number of commands.",
			"DOCS [<command-name> ...]", "    Each command's documentation: summary, group, version, arguments.",
			"GETKEYS <full-command>", "    The key arguments of a command line.",
			"GETKEYSANDFLAGS <full-command>", "    The key arguments of a command line with their access flags.",
			"INFO [<command-name> ...]", "    Each command's arity, flags, key positions, ACL categories, tips and key specifications.",
			"LIST [FILTERBY (MODULE <module-name>|ACLCAT <category>|PATTERN <pattern>)]", "    The command names, all or those matching the filter.",
			"HELP", "    Prints this help.",
		})
	case "count":
		c.W.Int(int64(len(all)))
	case "list":
		cat := c.Server.Config.ACL().Catalog()
		var names []string
		for _, s := range all {
			for _, sp := range append([]*command.Spec{s}, s.Subcommands...) {
				name := sp.FullName()
				switch cc.filter {
				case "module":
					continue // no modules
				case "aclcat":
					if !slices.Contains(cat.CommandCategories(name), "@"+strings.ToLower(string(cc.value))) {
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
	case "getkeys", "getkeysandflags":
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
		if cc.sub == "getkeys" {
			c.W.Array(len(idx))
			for _, i := range idx {
				c.W.Bulk(cc.names[i])
			}
			return nil
		}
		flags := spec.KeyFlags(cc.names, idx)
		c.W.Array(len(idx))
		for i, at := range idx {
			c.W.Array(2)
			c.W.Bulk(cc.names[at])
			var f []string
			if flags != nil {
				f = flags[i]
			}
			c.W.Set(len(f))
			for _, x := range f {
				c.W.Simple(x)
			}
		}
	case "info":
		cat := c.Server.Config.ACL().Catalog()
		if len(cc.names) == 0 {
			c.W.Array(len(all))
			for _, s := range all {
				writeInfo(c, s, cat)
			}
			return nil
		}
		c.W.Array(len(cc.names))
		for _, n := range cc.names {
			if s := c.Registry.LookupFull(n); s != nil {
				writeInfo(c, s, cat)
			} else {
				c.W.Null()
			}
		}
	case "docs":
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
			writeDoc(c, s)
		}
	}
	return nil
}

// writeInfo writes one COMMAND INFO entry in Redis 7's ten-field form.
func writeInfo(c *command.Ctx, s *command.Spec, cat *acl.Catalog) {
	c.W.Array(10)
	c.W.BulkString(s.FullName())
	c.W.Int(int64(s.Arity))
	f, known := s.Info, s.Info != nil
	if !known {
		f = &facts.Info{}
	}
	flags := f.Flags
	if !known {
		if s.Flags&command.Write != 0 {
			flags = append(flags, "write")
		}
		if s.Flags&command.ReadOnly != 0 {
			flags = append(flags, "readonly")
		}
		if s.Flags&command.Fast != 0 {
			flags = append(flags, "fast")
		}
	}
	c.W.Set(len(flags))
	for _, f := range flags {
		c.W.Simple(f)
	}
	first, last, step := s.Keys.First, s.Keys.Last, s.Keys.Step
	cats := cat.CommandCategories(s.FullName())
	if known {
		first, last, step, cats = f.First, f.Last, f.Step, f.ACL
	}
	c.W.Int(int64(first))
	c.W.Int(int64(last))
	c.W.Int(int64(step))
	c.W.Set(len(cats))
	for _, cat := range cats {
		c.W.Simple(cat)
	}
	c.W.Set(len(f.Tips))
	for _, t := range f.Tips {
		c.W.BulkString(t)
	}
	c.W.Array(len(f.KeySpecs))
	for _, ks := range f.KeySpecs {
		writeKeySpec(c.W, ks)
	}
	c.W.Array(len(s.Subcommands))
	for _, sub := range s.Subcommands {
		writeInfo(c, sub, cat)
	}
}
