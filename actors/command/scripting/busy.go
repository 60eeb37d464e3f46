package scripting

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rekv/rekv/actors/rerr"
)

// Running scripts, for BUSY replies and SCRIPT KILL / FUNCTION KILL.
//
// A script runs on its shard's goroutine; while one has run longer than
// busy-reply-threshold the network front answers other commands BUSY (as
// Redis does), except those flagged AllowBusy. A script that has not
// written can be killed: its Lua state's context is cancelled and its
// caller gets Redis's "Script killed by user" error.

type running struct {
	start    time.Time
	function bool
	name     string   // the function's name (FUNCTION STATS)
	command  [][]byte // the command that runs it, as sent
	wrote    atomic.Bool
	killed   atomic.Bool
	oom      atomic.Bool // stopped by the memory bound (memory.go)
	mem      *meter      // its memory account (memory.go)
	cancel   context.CancelFunc
}

type registry struct {
	mu  sync.Mutex
	all map[*running]struct{}
	// n is len(all), read without mu: the network front asks whether a
	// script is running before every command, and most often none is.
	n atomic.Int32
}

func (g *registry) add(function bool, name string, command [][]byte) (*running, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{start: time.Now(), function: function, name: name, command: command, cancel: cancel, mem: &meter{}}
	g.mu.Lock()
	if g.all == nil {
		g.all = map[*running]struct{}{}
	}
	g.all[r] = struct{}{}
	g.n.Store(int32(len(g.all)))
	g.mu.Unlock()
	return r, ctx
}

func (g *registry) remove(r *running) {
	g.mu.Lock()
	delete(g.all, r)
	g.n.Store(int32(len(g.all)))
	g.mu.Unlock()
	r.cancel()
}

// oldest returns the longest-running script, or nil; with functions,
// the longest-running function.
func (g *registry) oldest(functions bool) *running {
	if g.n.Load() == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var o *running
	for r := range g.all {
		if (!functions || r.function) && (o == nil || r.start.Before(o.start)) {
			o = r
		}
	}
	return o
}

// Busy reports how long the longest-running script has run (0: none) and
// whether it is a function; the network front compares it with
// busy-reply-threshold.
func (s *Scripts) Busy() (time.Duration, bool) {
	r := s.running.oldest(false)
	if r == nil {
		return 0, false
	}
	return time.Since(r.start), r.function
}

// BusyError is Redis's BUSY reply for a script (or function) running.
func BusyError(function bool) error {
	if function {
		return rerr.Errorf("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.")
	}
	return rerr.Errorf("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.")
}

// kill stops the longest-running script if it has not written: SCRIPT
// KILL (function false) only an EVAL, FUNCTION KILL only a function, each
// refusing the other kind with the BUSY error that names the right one,
// in Redis 7.0's order.
func (s *Scripts) kill(function bool) error {
	r := s.running.oldest(false)
	switch {
	case r == nil:
		return rerr.Errorf("NOTBUSY No scripts in execution right now.")
	case r.wrote.Load():
		return rerr.Errorf("UNKILLABLE Sorry the script already executed write commands against the dataset. " +
			"You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.")
	case r.function != function:
		return BusyError(r.function)
	}
	r.kill()
	return nil
}

// kill ends r as SCRIPT KILL does: its caller gets the "killed" error.
func (r *running) kill() {
	r.killed.Store(true)
	r.cancel()
}
