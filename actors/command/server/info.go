package server

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
)

// INFO [section [section ...]]: Redis 7.0's sections (server, clients,
// memory, persistence, stats, replication, cpu, modules, commandstats,
// errorstats, cluster, keyspace; see net/info.go for the figures) plus
// rekv's gc and namespaces. "default" (or no argument) is the default set
// with gc, "all" and "everything" add commandstats, latencystats and
// namespaces. A client in a named namespace sees its own namespace's
// line of namespaces, and its own databases in keyspace. Unknown sections
// are left out, as Redis does.
type info struct{ sections map[string]bool }

var (
	infoOrder   = []string{"server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "commandstats", "errorstats", "latencystats", "cluster", "keyspace", "gc", "namespaces"}
	infoDefault = map[string]bool{"server": true, "clients": true, "memory": true, "persistence": true, "stats": true,
		"replication": true, "cpu": true, "modules": true, "errorstats": true, "cluster": true, "keyspace": true, "gc": true}
)

func parseInfo(args [][]byte) (command.Runner, error) {
	in := info{sections: map[string]bool{}}
	if len(args) == 1 {
		in.sections = infoDefault
	}
	for _, a := range args[1:] {
		switch s := strings.ToLower(string(a)); s {
		case "default":
			for k := range infoDefault {
				in.sections[k] = true
			}
		case "all", "everything":
			for _, k := range infoOrder {
				in.sections[k] = true
			}
		default:
			in.sections[s] = true
		}
	}
	return in, nil
}

// title is a section's header as Redis writes it.
func title(sec string) string {
	if sec == "cpu" {
		return "CPU"
	}
	return strings.ToUpper(sec[:1]) + sec[1:]
}

func (in info) Run(c *command.Ctx) error {
	var b strings.Builder
	for _, sec := range infoOrder {
		if !in.sections[sec] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\r\n")
		}
		fmt.Fprintf(&b, "# %s\r\n", title(sec))
		line := func(k string, v any) { fmt.Fprintf(&b, "%s:%v\r\n", k, v) }
		switch sec {
		case "gc":
			for _, kv := range c.Server.Status.Stats().GC {
				line(kv[0], kv[1])
			}
		case "keyspace":
			if err := keyspace(c, &b); err != nil {
				return err
			}
		case "namespaces":
			lines, _ := c.Server.Status.InfoSection(sec)
			own := "namespace" + strconv.FormatUint(uint64(c.Namespace()), 10)
			for _, kv := range lines {
				if c.Namespace() == 0 || kv[0] == own {
					line(kv[0], kv[1])
				}
			}
		default:
			lines, _ := c.Server.Status.InfoSection(sec)
			for _, kv := range lines {
				line(kv[0], kv[1])
			}
		}
	}
	c.W.Verbatim(b.String())
	return nil
}

// keyspace writes "dbN:keys=..,expires=..,avg_ttl=0" for each non-empty db
// of the client's namespace by walking its meta keys.
func keyspace(c *command.Ctx, b *strings.Builder) error {
	keys, expires, err := c.Tx.Records().CountKeys(command.InNamespace(c.DB, 0))
	if err != nil {
		return err
	}
	for db := range keys {
		if keys[db] > 0 {
			fmt.Fprintf(b, "db%d:keys=%d,expires=%d,avg_ttl=0\r\n", db, keys[db], expires[db])
		}
	}
	return nil
}
