package net

import (
	"sort"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// What Server offers commands and the node (command.Server): stats,
// the store's health, clients, authentication.

// CommandsProcessed counts the commands clients sent (INFO's
// total_commands_processed; CONFIG RESETSTAT zeroes it).
func (s *Server) CommandsProcessed() int64 { return s.totalCmds.Load() }

// StorageFailed returns why the store is failing, "" when it is healthy.
func (s *Server) StorageFailed() string {
	if p := s.storageErr.Load(); p != nil {
		return *p
	}
	return ""
}

// SetStorageFailed marks the store failing (err) or healthy (nil), and
// logs the change once.
func (s *Server) SetStorageFailed(err error) {
	if err == nil {
		if old := s.storageErr.Swap(nil); old != nil {
			s.log.Warn("storage recovered: writes accepted again", "was", *old)
		}
		return
	}
	msg := err.Error()
	if old := s.storageErr.Swap(&msg); old == nil {
		s.stats.storageFailures.Add(1)
		s.log.Error("storage failed: write commands are refused until it recovers", "err", msg)
	}
}

// ClientList implements command.Server.
func (s *Server) ClientList(ns *uint32, typ string) []string {
	var ids []int64
	s.clients.Range(func(k, _ any) bool {
		ids = append(ids, k.(int64))
		return true
	})
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if v, ok := s.clients.Load(id); ok {
			if cl := v.(*client); (ns == nil || cl.namespace() == *ns) && (typ == "" || cl.kind() == typ) {
				out = append(out, cl.Info())
			}
		}
	}
	return out
}

// Stats implements command.Server.
func (s *Server) Stats() command.Stats {
	return command.Stats{
		Version:          s.info.Version,
		StartUnixMs:      s.start.UnixMilli(),
		Port:             s.info.Port,
		ConnectedClients: int(s.nclients.Load()),
		BlockedClients:   s.engine.Blocked(),
		TotalConnections: s.totalConns.Load(),
		TotalCommands:    s.totalCmds.Load(),
		Shards:           s.engine.Shards(),
		Driver:           s.info.Driver,
		ConfigFile:       s.info.ConfigFile,
		GC:               s.gcFields(),
	}
}

func (s *Server) gcFields() [][2]string {
	if s.info.GC == nil {
		return nil
	}
	return s.info.GC()
}

// CheckAuth implements command.Server.
func (vw configRole) CheckAuth(user, pass []byte) error {
	s := vw.s
	if user == nil {
		if u := s.acl.User("default"); u != nil && u.On && u.NoPass {
			return rerr.ErrNoPassword
		}
		user = []byte("default")
	}
	if !s.acl.Check(string(user), pass) {
		return rerr.ErrWrongPass
	}
	return nil
}

// ACL implements command.Server.
func (vw configRole) ACL() *acl.Store {
	s := vw.s
	return s.acl
}
