package node

import (
	"log/slog"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/rekv/rekv/conf"
)

// TestApplyRuntime: the settings reach the Go runtime, and zeros leave
// what the process had.
func TestApplyRuntime(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	gc := debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		debug.SetGCPercent(gc)
	})
	log := slog.New(slog.DiscardHandler)

	want := procs + 1 // differs from what the process has, whatever the machine
	ApplyRuntime(conf.Runtime{MaxProcs: want, GCPercent: 37}, log)
	if got := runtime.GOMAXPROCS(0); got != want {
		t.Errorf("GOMAXPROCS = %d, want %d", got, want)
	}
	if got := debug.SetGCPercent(37); got != 37 {
		t.Errorf("GC percent = %d, want 37", got)
	}

	ApplyRuntime(conf.Runtime{}, log)
	if got := runtime.GOMAXPROCS(0); got != want {
		t.Errorf("zero MaxProcs changed GOMAXPROCS to %d", got)
	}
	if got := debug.SetGCPercent(37); got != 37 {
		t.Errorf("zero GCPercent changed it to %d", got)
	}
}
