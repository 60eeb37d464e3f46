package server

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/rekv/rekv/actors/command"
)

// COMMAND DOCS data. docs/args.json holds each command's group, the
// version that introduced it and its argument structure (the facts redis
// -cli needs for hints and "help @group"), as Redis 7.0 declares them;
// docs/summaries.txt holds rekv's own summary and complexity of each.
var (
	//go:embed docs/args.json
	docsArgs []byte
	//go:embed docs/summaries.txt
	docsSummaries string
	//go:embed docs/acl.json
	docsACL []byte
)

type docEntry struct {
	Group           string              `json:"group"`
	Since           string              `json:"since"`
	DocFlags        []string            `json:"doc_flags"`
	DeprecatedSince string              `json:"deprecated_since"`
	Arguments       []docArg            `json:"arguments"`
	Subcommands     map[string]docEntry `json:"subcommands"`
}

type docArg struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	DisplayText  string   `json:"display_text"`
	KeySpecIndex *int     `json:"key_spec_index"`
	Token        string   `json:"token"`
	Flags        []string `json:"flags"`
	Arguments    []docArg `json:"arguments"`
}

// docs is the parsed documentation: entries by name, and summary and
// complexity by full name ("config|get").
type docs struct {
	entries map[string]docEntry
	summary map[string][2]string
}

func loadDocs() (*docs, error) {
	d := &docs{summary: map[string][2]string{}}
	if err := json.Unmarshal(docsArgs, &d.entries); err != nil {
		return nil, err
	}
	for _, line := range strings.Split(docsSummaries, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, '|')
		j := strings.LastIndexByte(line[:max(i, 0)], '|')
		if i < 0 || j < 0 {
			continue
		}
		d.summary[line[:j]] = [2]string{line[i+1:], line[j+1 : i]}
	}
	return d, nil
}

// write writes spec's documentation map (Redis 7's COMMAND DOCS entry),
// listing only the subcommands rekv has.
func (d *docs) write(c *command.Ctx, spec *command.Spec, e docEntry) {
	full := spec.FullName()
	sum := d.summary[full]
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
		if _, ok := e.Subcommands[full+"|"+s.Name]; ok {
			subs = append(subs, s)
		}
	}
	if len(subs) > 0 {
		n++
	}
	c.W.Map(n)
	c.W.BulkString("summary")
	c.W.BulkString(sum[0])
	c.W.BulkString("since")
	c.W.BulkString(e.Since)
	c.W.BulkString("group")
	c.W.BulkString(e.Group)
	c.W.BulkString("complexity")
	c.W.BulkString(sum[1])
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
			name := full + "|" + s.Name
			c.W.BulkString(name)
			d.write(c, s, e.Subcommands[name])
		}
	}
}

func writeArgs(c *command.Ctx, args []docArg) {
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
