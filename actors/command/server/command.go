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
// [arg ...] | GETKEYSANDFLAGS command [arg ...]]. COMMAND INFO gives
// Redis 7's flags, ACL categories, tips and key specifications
// (docs/info.json, docs/acl.json); GETKEYSANDFLAGS gives GETKEYS's keys
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
		facts, err := loadFacts()
		if err != nil {
			return err
		}
		flags := keyFlags(facts[spec.FullName()].KeySpecs, cc.names, idx)
		c.W.Array(len(idx))
		for i, at := range idx {
			c.W.Array(2)
			c.W.Bulk(cc.names[at])
			f := variableFlags(spec.FullName(), cc.names, flags[i])
			c.W.Set(len(f))
			for _, x := range f {
				c.W.Simple(x)
			}
		}
	case "info":
		acl, err := loadACL()
		if err != nil {
			return err
		}
		facts, err := loadFacts()
		if err != nil {
			return err
		}
		if len(cc.names) == 0 {
			c.W.Array(len(all))
			for _, s := range all {
				writeInfo(c, s, acl, facts)
			}
			return nil
		}
		c.W.Array(len(cc.names))
		for _, n := range cc.names {
			if s := c.Registry.LookupFull(n); s != nil {
				writeInfo(c, s, acl, facts)
			} else {
				c.W.Null()
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
func writeInfo(c *command.Ctx, s *command.Spec, acl map[string][]string, facts map[string]cmdFacts) {
	c.W.Array(10)
	c.W.BulkString(s.FullName())
	c.W.Int(int64(s.Arity))
	f, known := facts[s.FullName()]
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
	cats := acl[s.FullName()]
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
		ks.write(c.W)
	}
	c.W.Array(len(s.Subcommands))
	for _, sub := range s.Subcommands {
		writeInfo(c, sub, acl, facts)
	}
}

// variableFlags resolves the key flags Redis works out from the arguments
// of the commands whose key spec says variable_flags: SET writes its key
// blindly (OW) unless GET reads it; BITFIELD with only GET operations
// reads.
func variableFlags(name string, args [][]byte, flags []string) []string {
	if !slices.Contains(flags, "variable_flags") {
		return flags
	}
	switch name {
	case "set":
		for _, a := range args[3:] {
			if command.Is(a, "get") {
				return []string{"RW", "access", "update"}
			}
		}
		return []string{"OW", "update"}
	case "bitfield":
		for _, a := range args[2:] {
			if command.Is(a, "set") || command.Is(a, "incrby") {
				return []string{"RW", "access", "update"}
			}
		}
		return []string{"RO", "access"}
	}
	return slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "variable_flags" })
}

// loadACL returns the ACL categories of every command by full name.
func loadACL() (map[string][]string, error) {
	var m map[string][]string
	err := json.Unmarshal(docsACL, &m)
	return m, err
}
