package server

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// INFO [section [section ...]]: server, clients, memory, persistence,
// stats, replication, gc and keyspace; "all", "everything" and "default" name
// them all.
type info struct{ sections map[string]bool }

func parseInfo(args [][]byte) (command.Runner, error) {
	in := info{sections: map[string]bool{}}
	for _, a := range args[1:] {
		s := strings.ToLower(string(a))
		if s == "all" || s == "everything" || s == "default" {
			in.sections = nil
			break
		}
		in.sections[s] = true
	}
	if len(args) == 1 {
		in.sections = nil
	}
	return in, nil
}

func (in info) Run(c *command.Ctx) error {
	st := c.Server.Stats()
	var b strings.Builder
	for _, sec := range []string{"server", "clients", "memory", "persistence", "stats", "replication", "gc", "keyspace"} {
		if in.sections != nil && !in.sections[sec] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\r\n")
		}
		fmt.Fprintf(&b, "# %s\r\n", strings.ToUpper(sec[:1])+sec[1:])
		if err := in.section(c, &b, sec, st); err != nil {
			return err
		}
	}
	c.W.Verbatim(b.String())
	return nil
}

func (in info) section(c *command.Ctx, b *strings.Builder, sec string, st command.Stats) error {
	line := func(k string, v any) { fmt.Fprintf(b, "%s:%v\r\n", k, v) }
	uptime := (time.Now().UnixMilli() - st.StartUnixMs) / 1000
	switch sec {
	case "server":
		line("redis_version", st.Version)
		line("redis_mode", "standalone")
		line("os", runtime.GOOS)
		line("arch_bits", 64)
		line("process_id", os.Getpid())
		line("tcp_port", st.Port)
		line("uptime_in_seconds", uptime)
		line("uptime_in_days", uptime/86400)
		line("config_file", st.ConfigFile)
		line("rekv_storage_driver", st.Driver)
		line("rekv_shards", st.Shards)
	case "clients":
		line("connected_clients", st.ConnectedClients)
		line("blocked_clients", st.BlockedClients)
	case "memory":
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		line("used_memory", ms.HeapAlloc)
		line("used_memory_rss", ms.Sys)
	case "persistence":
		line("loading", 0)
	case "stats":
		line("total_connections_received", st.TotalConnections)
		line("total_commands_processed", st.TotalCommands)
	case "replication":
		line("role", "master")
		line("connected_slaves", 0)
	case "gc":
		for _, kv := range st.GC {
			line(kv[0], kv[1])
		}
	case "keyspace":
		return keyspace(c, b)
	}
	return nil
}

// keyspace writes "dbN:keys=..,expires=..,avg_ttl=0" for each non-empty db
// by walking every meta key.
func keyspace(c *command.Ctx, b *strings.Builder) error {
	keys, expires, err := c.Tx.CountKeys()
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
