package guard

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
)

// ErrPanic is the error of a command that panicked: it is reported as
// "ERR internal error", and the panic was already logged with its stack.
var ErrPanic = errors.New("guard: command panicked")

// Counter counts the panics recovered (INFO stats); the zero value is
// ready. A nil Counter counts nothing.
type Counter struct{ n atomic.Int64 }

// Load returns how many panics were recovered.
func (c *Counter) Load() int64 {
	if c == nil {
		return 0
	}
	return c.n.Load()
}

// Guard reports recovered panics to a log and a counter. The zero value
// reports to nothing but still recovers.
type Guard struct {
	Log   *slog.Logger
	Count *Counter
}

// Report logs a recovered panic p (msg and attrs say where), with the
// stack of the goroutine that panicked, and counts it. Call it from the
// deferred function that called recover, so the stack is the panic's.
func (g Guard) Report(p any, msg string, attrs ...any) {
	if g.Count != nil {
		g.Count.n.Add(1)
	}
	if g.Log == nil {
		return
	}
	attrs = append(attrs, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	g.Log.Error(msg, attrs...)
}

// Func returns fn wrapped so that a panic in it is reported and goes no
// further: for timers (time.AfterFunc) and callbacks other goroutines run.
func (g Guard) Func(what string, fn func()) func() {
	return func() {
		defer func() {
			if p := recover(); p != nil {
				g.Report(p, "panic recovered", "in", what)
			}
		}()
		fn()
	}
}

// Go runs fn on a new goroutine; a panic in it is reported and ends only
// that goroutine.
func (g Guard) Go(what string, fn func()) { go g.Func(what, fn)() }
