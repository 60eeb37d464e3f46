package node

import (
	"log/slog"
	"runtime"
	"runtime/debug"

	"github.com/rekv/rekv/conf"
)

// ApplyRuntime sets the process's Go memory limit, GC percentage and
// GOMAXPROCS from the configuration (0 leaves Go's own, from GOMEMLIMIT /
// GOGC / GOMAXPROCS). They are process-wide, so the program calls it
// once; Start never does (tests run many nodes in one process).
func ApplyRuntime(c conf.Runtime, log *slog.Logger) {
	if c.MemoryLimitMiB > 0 {
		debug.SetMemoryLimit(c.MemoryLimitMiB << 20)
	}
	if c.GCPercent != 0 {
		debug.SetGCPercent(c.GCPercent)
	}
	if c.MaxProcs > 0 {
		runtime.GOMAXPROCS(c.MaxProcs)
	}
	if c.MemoryLimitMiB > 0 || c.GCPercent != 0 || c.MaxProcs > 0 {
		log.Info("go runtime", "memory_limit_mib", c.MemoryLimitMiB, "gc_percent", c.GCPercent,
			"max_procs", runtime.GOMAXPROCS(0))
	}
}
