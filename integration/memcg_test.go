package integration

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// memCgroup is a memory cgroup holding one server process, so its memory,
// page cache of its memory-mapped files included, is capped the way a
// container's is: the kernel reclaims file pages at the limit and kills
// the process only if what it cannot reclaim (its heap) goes over.
type memCgroup struct {
	dir string
	v2  bool
}

// joinMemCgroup moves pid into a new memory cgroup limited to limit bytes
// (cgroup v2 when the unified hierarchy has the memory controller, else
// v1). It fails the test when neither is writable: the caller asked for
// the limit.
func joinMemCgroup(t *testing.T, pid int, limit uint64) *memCgroup {
	t.Helper()
	name := fmt.Sprintf("rekv-soak-%d", pid)
	var cg *memCgroup
	if b, err := os.ReadFile("/sys/fs/cgroup/cgroup.controllers"); err == nil && strings.Contains(string(b), "memory") {
		cg = &memCgroup{dir: filepath.Join("/sys/fs/cgroup", name), v2: true}
	} else if _, err := os.Stat("/sys/fs/cgroup/memory/memory.limit_in_bytes"); err == nil {
		cg = &memCgroup{dir: filepath.Join("/sys/fs/cgroup/memory", name)}
	} else {
		t.Fatal("no writable memory cgroup (v2 memory controller or v1 memory hierarchy) for the soak's limit")
	}
	if err := os.Mkdir(cg.dir, 0o755); err != nil {
		t.Fatalf("memory cgroup: %v", err)
	}
	t.Cleanup(func() {
		// rmdir fails while the process is in it: kill it first.
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
		for i := 0; i < 100; i++ {
			if err := os.Remove(cg.dir); err == nil || errors.Is(err, os.ErrNotExist) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("memory cgroup %s left behind", cg.dir)
	})
	limitFile := "memory.limit_in_bytes"
	if cg.v2 {
		limitFile = "memory.max"
	}
	cg.write(t, limitFile, strconv.FormatUint(limit, 10))
	if !cg.v2 {
		cg.write(t, "memory.memsw.limit_in_bytes", strconv.FormatUint(limit, 10)) // no swap either, where accounted
	}
	cg.write(t, "cgroup.procs", strconv.Itoa(pid))
	return cg
}

func (cg *memCgroup) write(t *testing.T, file, value string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(cg.dir, file), []byte(value), 0o644); err != nil {
		if file == "memory.memsw.limit_in_bytes" && errors.Is(err, os.ErrNotExist) {
			return // swap accounting off
		}
		t.Fatalf("memory cgroup %s: %v", file, err)
	}
}

// stats returns the cgroup's peak memory (file pages included) and how
// many processes the kernel's OOM killer killed in it.
func (cg *memCgroup) stats() (peak, oomKills uint64) {
	read := func(file string) string {
		b, _ := os.ReadFile(filepath.Join(cg.dir, file))
		return string(b)
	}
	if cg.v2 {
		peak, _ = strconv.ParseUint(strings.TrimSpace(read("memory.peak")), 10, 64)
		return peak, statValue(read("memory.events"), "oom_kill")
	}
	peak, _ = strconv.ParseUint(strings.TrimSpace(read("memory.max_usage_in_bytes")), 10, 64)
	return peak, statValue(read("memory.oom_control"), "oom_kill")
}
