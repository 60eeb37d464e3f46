package net

import (
	"fmt"
	"time"

	"github.com/rekv/rekv/actors/command"
)

// Info returns the client's CLIENT INFO / CLIENT LIST line.
func (cl *client) Info() string {
	// Redis's flags, in its order: S replica, P pubsub, b blocked, t tracking, R
	// its redirect broken, B broadcast, e no-evict, T no-touch; N none.
	blocked := cl.srv != nil && cl.srv.engine != nil && cl.srv.engine.IsBlocked(cl) // before cl.mu: the engine's lock first
	cl.mu.Lock()
	defer cl.mu.Unlock()
	now := time.Now()
	flags := ""
	if cl.replica.Load() {
		flags += "S"
	}
	if len(cl.subs)+len(cl.psubs)+len(cl.ssubs) > 0 {
		flags += "P"
	}
	if blocked {
		flags += "b"
	}
	if cl.trk.on {
		flags += "t"
		if cl.trk.broken {
			flags += "R"
		}
		if cl.trk.bcast {
			flags += "B"
		}
	}
	if cl.noEvict.Load() {
		flags += "e"
	}
	if cl.noTouch.Load() {
		flags += "T"
	}
	if flags == "" {
		flags = "N"
	}
	return fmt.Sprintf("id=%d addr=%s laddr=%s fd=%d name=%s age=%d idle=%d flags=%s db=%d sub=%d psub=%d ssub=%d multi=-1 "+
		"qbuf=%d qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=0 oll=0 omem=0 tot-mem=0 events=r cmd=%s user=%s redir=%s resp=%d lib-name=%s lib-ver=%s",
		cl.id, cl.addr, cl.laddr, cl.fd, cl.name, int(now.Sub(cl.created).Seconds()), int(now.Sub(cl.lastSeen).Seconds()),
		flags, command.UserDB(cl.DB()), len(cl.subs), len(cl.psubs), len(cl.ssubs), max(cl.inBuf.Load(), cl.reading.Load())+cl.asmBuf.Load(), cl.lastCmd, cl.User(), formatRedir(cl.trk), cl.Proto(), cl.libName, cl.libVer)
}
