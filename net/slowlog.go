package net

import (
	"fmt"
	"sync"
	"time"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
)

// SLOWLOG keeps the commands whose execution took at least
// slowlog-log-slower-than microseconds (negative: none; 0: all), newest
// first, at most slowlog-max-len of them. A command's time is its run in
// its shard's transaction (the group commit's fsync and the wait in the
// shard's mailbox are not counted), or the run of a connection command;
// a blocked command is timed when it is served. Arguments are kept as
// Redis keeps them: at most 32 (the last one then says how many more
// there were), each cut at 128 bytes, passwords redacted.
type slowlog struct {
	mu      sync.Mutex
	entries []command.SlowEntry // newest first
	nextID  int64
	max     int
}

const (
	slowMaxArgs  = 32
	slowMaxBytes = 128
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

func (s *Server) slowCommand(cl *client, args [][]byte, d time.Duration) {
	th := s.rt.slowThreshold.Load()
	us := d.Microseconds()
	if th < 0 || us < th {
		return
	}
	n := min(len(args), slowMaxArgs)
	kept := make([][]byte, 0, n)
	redact := redacted(args)
	for i := 0; i < n; i++ {
		a := args[i]
		switch {
		case i == slowMaxArgs-1 && len(args) > slowMaxArgs:
			a = []byte(fmt.Sprintf("... (%d more arguments)", len(args)-slowMaxArgs+1))
		case redact[i]:
			a = []byte("(redacted)")
		case len(a) > slowMaxBytes:
			a = append(append([]byte(nil), a[:slowMaxBytes]...), fmt.Sprintf("... (%d more bytes)", len(a)-slowMaxBytes)...)
		default:
			a = append([]byte(nil), a...)
		}
		kept = append(kept, a)
	}
	e := command.SlowEntry{Time: time.Now().Unix(), Micros: us, Args: kept, Addr: cl.addr, Name: cl.Name()}
	l := &s.slow
	l.mu.Lock()
	defer l.mu.Unlock()
	e.ID = l.nextID
	l.nextID++
	l.entries = append([]command.SlowEntry{e}, l.entries...)
	if len(l.entries) > l.max {
		l.entries = l.entries[:l.max]
	}
}

// setMax sets slowlog-max-len, dropping the oldest entries past it.
func (l *slowlog) setMax(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.max = n
	if len(l.entries) > n {
		l.entries = l.entries[:n]
	}
}

// Slowlog implements command.Server.
func (s *Server) Slowlog(count int) []command.SlowEntry {
	s.slow.mu.Lock()
	defer s.slow.mu.Unlock()
	if count < 0 || count > len(s.slow.entries) {
		count = len(s.slow.entries)
	}
	return append([]command.SlowEntry(nil), s.slow.entries[:count]...)
}

// SlowlogLen implements command.Server.
func (s *Server) SlowlogLen() int {
	s.slow.mu.Lock()
	defer s.slow.mu.Unlock()
	return len(s.slow.entries)
}

// SlowlogReset implements command.Server.
func (s *Server) SlowlogReset() {
	s.slow.mu.Lock()
	defer s.slow.mu.Unlock()
	s.slow.entries = nil
}
