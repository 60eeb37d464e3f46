package net

import (
	"context"
	"testing"

	"github.com/panjf2000/gnet/v2"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
)

// taskLoop is an event loop that only queues tasks, for Run to run them.
type taskLoop struct {
	gnet.EventLoop
	tasks []gnet.Runnable
}

func (l *taskLoop) Execute(_ context.Context, r gnet.Runnable) error {
	l.tasks = append(l.tasks, r)
	return nil
}

func (l *taskLoop) run() {
	for len(l.tasks) > 0 {
		r := l.tasks[0]
		l.tasks = l.tasks[1:]
		_ = r.Run(context.Background())
	}
}

// TestPassRunsOneMultiShardWriteInPlace: in one wake-up, the first
// multi-shard write may run in place and the next are dispatched (to
// share a barrier's commit); reads and single-shard commands always may;
// the next wake-up starts afresh.
func TestPassRunsOneMultiShardWriteInPlace(t *testing.T) {
	loop := &taskLoop{}
	p := &loopPass{loop: loop}
	write := &command.Spec{Name: "mset", Flags: command.Write}
	read := &command.Spec{Name: "mget"}
	req := func(spec *command.Spec, shards ...int) *actors.Request {
		return &actors.Request{Spec: spec, Shards: shards}
	}
	steps := []struct {
		req  *actors.Request
		want bool
	}{
		{req(write, 0), true},
		{req(read, 0, 1), true},
		{req(write, 0, 1), true},
		{req(write, 1, 2), false},
		{req(read, 1, 2), true},
		{req(write, 2), true},
		{req(write, 0, 2), false},
	}
	for i, s := range steps {
		if got := p.inPlace(s.req); got != s.want {
			t.Fatalf("step %d: inPlace = %v, want %v", i, got, s.want)
		}
	}
	if len(loop.tasks) != 1 {
		t.Fatalf("%d tasks queued, want one to end the wake-up", len(loop.tasks))
	}
	loop.run()
	if !p.inPlace(req(write, 0, 1)) {
		t.Fatal("the next wake-up's first multi-shard write may not run in place")
	}
}
