package scripting

import (
	"context"
	"time"
)

// loadCheckEvery is how many instructions a library's load code runs
// between two looks at the clock: Redis's load hook runs every 100,000
// instructions (function_lua.c, lua_sethook with LUA_MASKCOUNT).
const loadCheckEvery = 100_000

// loadClock is the context a library's load code runs under. gopher-lua
// asks a state's context for Done before every instruction; loadClock
// counts those calls and, like Redis's hook, compares the time since the
// load began with loadTimeout only every loadCheckEvery of them. So, as in
// Redis, a load that runs few instructions never times out, however late
// a busy machine schedules it; one that loops is stopped after loadTimeout
// plus at most loadCheckEvery instructions.
//
// A loadClock belongs to the one goroutine running the load: it is not
// safe for concurrent use, and it need not be (the sandbox has no
// channels or coroutines on other goroutines).
type loadClock struct {
	context.Context // Background: no deadline, no values
	start           time.Time
	timeout         time.Duration
	n               int
	done            chan struct{}
	err             error
}

func newLoadClock(start time.Time, timeout time.Duration) *loadClock {
	return &loadClock{Context: context.Background(), start: start, timeout: timeout, done: make(chan struct{})}
}

// Done counts an instruction and, every loadCheckEvery of them, closes
// the channel it returns once the load has run past its timeout.
func (c *loadClock) Done() <-chan struct{} {
	c.n++
	if c.n >= loadCheckEvery {
		c.n = 0
		if c.err == nil && time.Since(c.start) > c.timeout {
			c.err = context.DeadlineExceeded
			close(c.done)
		}
	}
	return c.done
}

// Err is context.DeadlineExceeded once Done has closed, else nil.
func (c *loadClock) Err() error { return c.err }
