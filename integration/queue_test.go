package integration

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
)

// TestAsynqQueue drives a real job-queue library built on Lua scripts
// (hibiken/asynq: EVALSHA with NOSCRIPT fallback for enqueue, dequeue,
// completion, retry and the forwarding of scheduled tasks): 1,000 jobs,
// 100 of them delayed, are enqueued, processed by 10 workers and completed,
// each exactly once.
//
// On the in-process TiKV mock under the race detector, 250 jobs, 25
// delayed: the mock keeps every version of every key it was given (no
// MVCC GC), so each queue scan steps over all the pushes and pops before
// it, and 1,000 jobs took 200 s of CI's time (Badger: 6 s).
func TestAsynqQueue(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		ctx := context.Background()
		must(t, newClient(t, addr, 2).FlushAll(ctx).Err())
		opt := asynq.RedisClientOpt{Addr: addr}
		client := asynq.NewClient(opt)
		defer client.Close()
		jobs, delayed := 1000, 100
		if raceEnabled && onMock(t) {
			jobs, delayed = 250, 25
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var done atomic.Int64
		all := make(chan struct{})
		mux := asynq.NewServeMux()
		mux.HandleFunc("job", func(_ context.Context, task *asynq.Task) error {
			mu.Lock()
			seen[string(task.Payload())]++
			mu.Unlock()
			if done.Add(1) == int64(jobs) {
				close(all)
			}
			return nil
		})
		srv := asynq.NewServer(opt, asynq.Config{Concurrency: 10, DelayedTaskCheckInterval: 200 * time.Millisecond,
			LogLevel: asynq.ErrorLevel, ShutdownTimeout: 5 * time.Second})
		if err := srv.Start(mux); err != nil {
			t.Fatal(err)
		}
		defer srv.Shutdown()
		for i := 0; i < jobs; i++ {
			var opts []asynq.Option
			if i < delayed {
				opts = append(opts, asynq.ProcessIn(time.Duration(500+i)*time.Millisecond))
			}
			if _, err := client.EnqueueContext(ctx, asynq.NewTask("job", []byte(fmt.Sprint(i))), opts...); err != nil {
				t.Fatalf("enqueue %d: %v", i, err)
			}
		}
		select {
		case <-all:
		case <-time.After(90 * time.Second):
			t.Fatalf("only %d of %d jobs processed in 90 s", done.Load(), jobs)
		}
		mu.Lock()
		defer mu.Unlock()
		for i := 0; i < jobs; i++ {
			if n := seen[fmt.Sprint(i)]; n != 1 {
				t.Fatalf("job %d processed %d times", i, n)
			}
		}
		// Drained: nothing pending, active, scheduled or to retry (asynq's
		// keys; its Inspector also needs MEMORY USAGE, not served yet).
		rc := newClient(t, addr, 2)
		deadline := time.Now().Add(10 * time.Second)
		for {
			left := rc.LLen(ctx, "asynq:{default}:pending").Val() + rc.LLen(ctx, "asynq:{default}:active").Val() +
				rc.ZCard(ctx, "asynq:{default}:scheduled").Val() + rc.ZCard(ctx, "asynq:{default}:retry").Val()
			if left == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("queue not drained: %d tasks left", left)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
