package server

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MEMORY USAGE key [SAMPLES count] | STATS | DOCTOR | PURGE |
// MALLOC-STATS | HELP.
//
// USAGE estimates the bytes a key takes in storage (command.Usage, of up
// to count members: 5 by default, 0: every member). It is
// not Redis's figure (Redis counts its in-memory structures). STATS
// reports the Go heap, PURGE returns freed memory to the OS, DOCTOR
// reports what it sees, MALLOC-STATS has no allocator statistics to show.
type memoryUsage struct {
	key     []byte
	samples int64
}

func parseMemoryUsage(args [][]byte) (command.Runner, error) {
	m := memoryUsage{key: args[2], samples: 5}
	for i := 3; i < len(args); i++ {
		if !command.Is(args[i], "samples") || i+1 >= len(args) {
			return nil, rerr.ErrSyntax
		}
		n, err := command.Int(args[i+1])
		if err != nil {
			return nil, rerr.ErrNotInteger
		}
		if n < 0 {
			return nil, rerr.ErrSyntax
		}
		m.samples = n
		i++
	}
	return m, nil
}

func (m memoryUsage) Run(c *command.Ctx) error {
	size, ok, err := command.Usage(c, m.key, m.samples)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Int(size)
	return nil
}

type memoryInfo struct{ sub string }

func parseMemoryInfo(sub string) func([][]byte) (command.Runner, error) {
	return func([][]byte) (command.Runner, error) { return memoryInfo{sub}, nil }
}

func (m memoryInfo) Run(c *command.Ctx) error {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	switch m.sub {
	case "stats":
		fields := [][2]any{
			{"peak.allocated", int64(ms.HeapSys)},
			{"total.allocated", int64(ms.HeapAlloc)},
			{"heap.inuse", int64(ms.HeapInuse)},
			{"heap.released", int64(ms.HeapReleased)},
			{"heap.objects", int64(ms.HeapObjects)},
			{"stack.inuse", int64(ms.StackInuse)},
			{"gc.cycles", int64(ms.NumGC)},
			{"sys", int64(ms.Sys)},
		}
		c.W.Map(len(fields))
		for _, f := range fields {
			c.W.BulkString(f[0].(string))
			c.W.Int(f[1].(int64))
		}
	case "doctor":
		c.W.Verbatim(fmt.Sprintf("Go heap: %d bytes allocated in %d objects, %d bytes held from the OS, %d returned to it; "+
			"%d collections so far. Keys live in the store, not in memory: their size is not counted here.",
			ms.HeapAlloc, ms.HeapObjects, ms.HeapSys, ms.HeapReleased, ms.NumGC))
	case "purge":
		debug.FreeOSMemory()
		c.W.OK()
	case "malloc-stats":
		c.W.Verbatim("Stats not supported for the current allocator")
	case "help":
		lines := []string{
			"MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"DOCTOR", "    Describes the memory in use.",
			"MALLOC-STATS", "    Allocator statistics (none for Go's).",
			"PURGE", "    Returns freed memory to the OS.",
			"STATS", "    The Go heap's figures.",
			"USAGE <key> [SAMPLES <count>]", "    Estimates the bytes a key takes in storage (5 members sampled, 0: all).",
			"HELP", "    Prints this help.",
		}
		c.W.SimpleArray(lines)
	}
	return nil
}
