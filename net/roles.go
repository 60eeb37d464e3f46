package net

import (
	"context"

	"github.com/rekv/rekv/actors/command"
)

// The roles the server plays for commands (command.Server) that are not
// about its connections are separate types, so that Server's own methods
// are the network front's: configRole (CONFIG and users), nodeRole
// (persistence, replication, shutdown) and diagRole (SLOWLOG, LATENCY).
// Each holds the server it serves.

// configRole is command.Config.
type configRole struct{ s *Server }

// nodeRole is command.Node.
type nodeRole struct{ s *Server }

// diagRole is command.Diagnostics.
type diagRole struct{ s *Server }

// roles returns the server as the roles commands use.
func (s *Server) roles() command.Server {
	return command.Server{Clients: s, Config: configRole{s}, Node: nodeRole{s}, Status: s, Diag: diagRole{s}, Broker: s,
		Namespaces: s.opts.Namespaces}
}

// Roles is roles, for the engine the node builds with this server.
func (s *Server) Roles() command.Server { return s.roles() }

// LastSave implements command.Node (LASTSAVE).
func (r nodeRole) LastSave() int64 { return r.s.saver.LastSave() }

// Save implements command.Node (SAVE, BGSAVE).
func (r nodeRole) Save(background, schedule bool) (string, error) {
	return r.s.saver.Save(background, schedule)
}

// LatencyLatest implements command.Diagnostics.
func (r diagRole) LatencyLatest() []command.LatencyEvent { return r.s.latency.LatencyLatest() }

// LatencyHistory implements command.Diagnostics.
func (r diagRole) LatencyHistory(event string) []command.LatencySample {
	return r.s.latency.LatencyHistory(event)
}

// LatencyReset implements command.Diagnostics.
func (r diagRole) LatencyReset(events []string) int { return r.s.latency.LatencyReset(events) }

// Slowlog implements command.Diagnostics.
func (r diagRole) Slowlog(n int) []command.SlowEntry { return r.s.slowLog.Slowlog(n) }

// SlowlogLen implements command.Diagnostics.
func (r diagRole) SlowlogLen() int { return r.s.slowLog.SlowlogLen() }

// SlowlogReset implements command.Diagnostics.
func (r diagRole) SlowlogReset() { r.s.slowLog.SlowlogReset() }

// Replicate implements command.Node.
func (r nodeRole) Replicate(args ...[]byte) {
	if r.s.opts.Replication != nil {
		r.s.opts.Replication.Propagate(args...)
	}
}

// Rewrite implements command.Node (BGREWRITEAOF).
func (r nodeRole) Rewrite() (string, error) { return r.s.rewriter.Rewrite() }

// Shards implements command.Node.
func (r nodeRole) Shards() int { return r.s.engine.Shards() }

// ShardOf implements command.Node.
func (r nodeRole) ShardOf(key []byte) int { return r.s.engine.ShardOf(key) }

// Exec implements command.Node.
func (r nodeRole) Exec(shard, db int, spec *command.Spec, run command.Runner) error {
	return r.s.engine.Exec(context.Background(), shard, db, spec, run)
}
