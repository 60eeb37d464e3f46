package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/facts"
)

// writeDoc writes spec's documentation map (Redis 7's COMMAND DOCS
// entry, from spec.Doc), listing only the subcommands rekv has.
func writeDoc(c *command.Ctx, spec *command.Spec) {
	e := spec.Doc
	if e == nil {
		e = &facts.Doc{}
	}
	n := 4
	if len(e.DocFlags) > 0 {
		n++
	}
	if e.DeprecatedSince != "" {
		n++
	}
	if len(e.Arguments) > 0 {
		n++
	}
	var subs []*command.Spec
	for _, s := range spec.Subcommands {
		if s.Doc != nil {
			subs = append(subs, s)
		}
	}
	if len(subs) > 0 {
		n++
	}
	c.W.Map(n)
	c.W.BulkString("summary")
	c.W.BulkString(e.Summary)
	c.W.BulkString("since")
	c.W.BulkString(e.Since)
	c.W.BulkString("group")
	c.W.BulkString(e.Group)
	c.W.BulkString("complexity")
	c.W.BulkString(e.Complexity)
	if len(e.DocFlags) > 0 {
		c.W.BulkString("doc_flags")
		c.W.Set(len(e.DocFlags))
		for _, f := range e.DocFlags {
			c.W.Simple(f)
		}
	}
	if e.DeprecatedSince != "" {
		c.W.BulkString("deprecated_since")
		c.W.BulkString(e.DeprecatedSince)
	}
	if len(e.Arguments) > 0 {
		c.W.BulkString("arguments")
		writeArgs(c, e.Arguments)
	}
	if len(subs) > 0 {
		c.W.BulkString("subcommands")
		c.W.Map(len(subs))
		for _, s := range subs {
			c.W.BulkString(s.FullName())
			writeDoc(c, s)
		}
	}
}

func writeArgs(c *command.Ctx, args []facts.Arg) {
	c.W.Array(len(args))
	for _, a := range args {
		n := 2
		for _, present := range []bool{a.DisplayText != "", a.KeySpecIndex != nil, a.Token != "", len(a.Flags) > 0, len(a.Arguments) > 0} {
			if present {
				n++
			}
		}
		c.W.Map(n)
		c.W.BulkString("name")
		c.W.BulkString(a.Name)
		c.W.BulkString("type")
		c.W.BulkString(a.Type)
		if a.DisplayText != "" {
			c.W.BulkString("display_text")
			c.W.BulkString(a.DisplayText)
		}
		if a.KeySpecIndex != nil {
			c.W.BulkString("key_spec_index")
			c.W.Int(int64(*a.KeySpecIndex))
		}
		if a.Token != "" {
			c.W.BulkString("token")
			c.W.BulkString(a.Token)
		}
		if len(a.Flags) > 0 {
			c.W.BulkString("flags")
			c.W.Set(len(a.Flags))
			for _, f := range a.Flags {
				c.W.Simple(f)
			}
		}
		if len(a.Arguments) > 0 {
			c.W.BulkString("arguments")
			writeArgs(c, a.Arguments)
		}
	}
}
