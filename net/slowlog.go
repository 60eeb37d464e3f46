package net

import (
	"time"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
)

// Slow is the engine's hook (actors.Options.Slow): it logs the command if
// it was slow enough.
func (s *Server) Slow(r actors.Replier, spec *command.Spec, args [][]byte, d time.Duration, failed bool) {
	cl, ok := r.(*client)
	if !ok {
		return
	}
	s.commandDone(spec, d, failed)
	s.slowCommand(cl, args, d)
}

// slowCommand records the command in the slow log if it ran long
// enough (slowlog-log-slower-than).
func (s *Server) slowCommand(cl *client, args [][]byte, d time.Duration) {
	// The threshold first: the client's name takes its lock, once per
	// command otherwise.
	if th := s.rt.slowThreshold.Load(); th >= 0 && d.Microseconds() >= th {
		s.slowLog.Record(th, args, d, cl.addr, cl.Name())
	}
}
