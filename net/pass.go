package net

import (
	"context"
	"sync"

	"github.com/panjf2000/gnet/v2"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/resp"
)

// A loop pass: the commands an event loop runs in place of idle shards
// (actors.Session) from all the clients it reads during one wake-up, until
// the wake-up's events are all handled. The commands of one shard share
// one group commit, whichever client sent them: fifty clients each sending
// one SET cost one commit per shard per wake-up, not fifty. The pass ends
// (its groups commit, which makes the replies, and its shards are
// released) in a task the loop runs right after the events of the wake-up
// (the patched gnet's ExecuteHere, which saves the eventfd wake-up of
// Execute), or sooner when a member client needs it: a command of
// that client that cannot join the pass (it must see the pass's writes),
// a connection command, or a pass output bound.
//
// Invariant: a client is a member (inPass) only while every command of it
// not yet answered ran in the pass; a command of a client that is not a
// member joins only when the client has nothing unanswered. Replies of
// members go out when the pass ends, in one write per client.
type loopPass struct {
	sess    actors.Session
	members []*client
	// ending is set while a task to end the pass is queued on the loop.
	ending bool
	// joint is set once a multi-shard write ran in place in this
	// wake-up: the next ones are dispatched instead, so that they join
	// one barrier and share its commit (each run in place commits
	// alone). A lone client's keep running in place, at its latency.
	joint bool
	loop  gnet.EventLoop
	// here is loop when it can queue the pass's end without waking
	// itself (hereExecutor), else nil.
	here hereExecutor
	// keys and fields are scratch for warm.
	keys, fields [][]byte
}

// passes maps each event loop to its pass; a client takes its loop's at
// open.
type passes struct {
	mu sync.Mutex
	m  map[gnet.EventLoop]*loopPass
}

// of returns the pass of loop (made at first use).
func (ps *passes) of(e *actors.Engine, loop gnet.EventLoop) *loopPass {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.m == nil {
		ps.m = make(map[gnet.EventLoop]*loopPass)
	}
	p := ps.m[loop]
	if p == nil {
		p = &loopPass{sess: e.Session(), loop: loop}
		p.here, _ = loop.(hereExecutor)
		ps.m[loop] = p
	}
	return p
}

// run runs req of cl in the pass if it may join (see loopPass): it
// reports false, having done nothing, when req must run otherwise; the
// caller ends the pass first when cl is a member.
func (p *loopPass) run(cl *client, req *actors.Request) bool {
	if !cl.inPass && !cl.answered(req.Seq) {
		return false
	}
	if !p.sess.Run(req) {
		return false
	}
	if !cl.inPass {
		cl.inPass = true
		p.members = append(p.members, cl)
	}
	return true
}

// warm reads ahead, in the shards the pass holds, what the next commands
// in buf (cl's, about to run) will look up (actors.Session.Warm). The
// keys are found without parsing (resp.SecondArgs): a command whose
// second argument is not a key costs a wasted read.
func (p *loopPass) warm(cl *client, buf []byte) {
	if !p.sess.Open() {
		return
	}
	if p.keys == nil {
		p.keys, p.fields = make([][]byte, 0, store.MaxWarm), make([][]byte, 0, store.MaxWarm)
	}
	p.keys, p.fields = resp.ArgsAhead(buf, p.keys, p.fields)
	p.sess.Warm(cl.DB(), p.keys, p.fields)
	clear(p.keys) // they point into the connection's buffer
	clear(p.fields)
}

// end commits the pass's groups and releases its shards; the members'
// replies are written out, except cur's (the client whose OnTraffic is
// running: its own end of batch writes them). cur may be nil.
func (p *loopPass) end(cur *client) {
	if !p.sess.Open() {
		return
	}
	for _, m := range p.members {
		if m != cur {
			m.beginBatch()
		}
	}
	p.sess.End()
	for i, m := range p.members {
		m.inPass = false
		if m != cur {
			m.endBatch()
		}
		p.members[i] = nil
	}
	p.members = p.members[:0]
}

// endSoon makes the loop end the pass once the events of this wake-up are
// handled (at once if the loop cannot take the task).
func (p *loopPass) endSoon() {
	if !p.sess.Open() {
		return
	}
	p.wakeUpEnd()
}

// wakeUpEnd queues the task that ends the wake-up's pass (Run), unless
// it is queued; it runs that at once if the loop cannot take the task.
func (p *loopPass) wakeUpEnd() {
	if p.ending {
		return
	}
	p.ending = true
	var err error
	if p.here != nil {
		err = p.here.ExecuteHere(p)
	} else {
		err = p.loop.Execute(context.Background(), p)
	}
	if err != nil {
		_ = p.Run(context.Background())
	}
}

// hereExecutor is an event loop that can queue a task from its own
// goroutine without waking itself (the patched gnet's ExecuteHere): the
// task runs after the wake-up's events, as with Execute, but saves the
// eventfd write and the epoll_wait that returns it -- two system calls a
// wake-up, 6-7% of a GET -P 1's CPU for the write alone.
type hereExecutor interface {
	ExecuteHere(gnet.Runnable) error
}

// inPlace reports whether req may run in place of its shards
// (actors.Engine.RunHere) as far as the pass is concerned: any command
// but a multi-shard write after the first of this wake-up (see joint).
func (p *loopPass) inPlace(req *actors.Request) bool {
	if len(req.Shards) < 2 || req.Spec.Flags&command.Write == 0 {
		return true
	}
	if p.joint {
		return false
	}
	p.joint = true
	p.wakeUpEnd()
	return true
}

// Run is the task endSoon queues: it implements gnet.Runnable.
func (p *loopPass) Run(context.Context) error {
	p.ending, p.joint = false, false
	p.end(nil)
	return nil
}
