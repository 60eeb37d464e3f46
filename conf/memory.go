package conf

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Memory is the one budget every part of rekv that grows is sized from
// (see Sizing): the Go heap's soft limit, Badger's block and index caches
// and memtables, the meta, member and list caches, and what clients may
// hold (pipelines, unread replies, query buffers).
type Memory struct {
	// BudgetMiB is the budget in MiB. 0 (the default): Redis's maxmemory
	// when it is set (server.redis.maxmemory), else a quarter of the
	// memory the process may use (its memory cgroup's limit, or the
	// machine's RAM), at least 256 MiB.
	BudgetMiB int64 `koanf:"budget_mib"`
	// sizing is what ApplyBudget shared out (Load calls it).
	sizing Sizing
}

// Budget returns the memory budget in bytes: Memory.BudgetMiB, else
// maxmemory, else a quarter of machine (bytes the process may use; 0 if
// unknown, then 1 GiB), at least 256 MiB.
func (c Config) Budget(machine int64) int64 {
	if c.Memory.BudgetMiB > 0 {
		return c.Memory.BudgetMiB << 20
	}
	if n, err := ParseMemory(c.Server.Redis["maxmemory"]); err == nil && n > 0 {
		return n
	}
	if machine <= 0 {
		return 1 << 30
	}
	return max(machine/4, 256<<20)
}

// Sizing is how a budget B is shared. The caches fill only as data is
// read; at most they take about: the Go heap limit 3/4 B (it bounds all
// of the rest, which lives on the Go heap: a soft limit, the collector
// works harder near it; the rest of B is for what it cannot hold back:
// garbage between collections, memory not yet returned to the OS), Badger's block cache B/4 and index
// cache B/16, memtables of B/64 each (4 to 16 MiB; Badger keeps up to
// six), tables of 1 MiB instead of 2 under a 512 MiB budget (Badger's
// compactions build several at once, about 100 MiB with 2 MiB tables
// while loading data), the meta cache B/16 (170 bytes an entry; at most
// MaxMetaCacheSize entries) and the
// member cache B/16 (110 bytes a member), the list cache B/32; each
// client's pipeline of commands in flight B/64 (8 to 256 MiB) of
// arguments, and its unread replies B/64 (8 to 64 MiB) before rekv stops
// running its commands until it reads. What is left is headroom for
// commands' own work.
type Sizing struct {
	Budget          int64 // bytes
	HeapLimitMiB    int64
	BlockCacheMiB   int64
	IndexCacheMiB   int64
	MemTableMiB     int64
	BaseTableMiB    int64 // 0: Badger's default (2)
	MetaCacheSize   int
	MemberCacheSize int
	ListCacheMiB    int
	// ClientsBytes is maxmemory-clients' start value: 0 (off), Redis's
	// default. A B/8 share once evicted the client of a legal 511 MiB
	// SET; each client's own pipeline and unread replies stay bounded.
	ClientsBytes  int64
	PipelineBytes int64 // one client's arguments in flight
	OutputBytes   int64 // one client's unread replies before it is paused
}

// MaxMetaCacheSize bounds the meta cache a budget gives (262,144
// entries, about 45 MiB; set actors.meta_cache_size for more). A write
// caches its key's meta, so a cache of B/16 held every key of a data set
// loaded into it on a big machine, a second copy of the keyspace beside
// the store's (1,000,000 keys: 166 MiB of cache, RSS 2x Redis's); keys
// past it are read from the store's memtables and block cache, also in
// memory on Badger.
const MaxMetaCacheSize = 1 << 18

// SizingFor shares budget bytes (see Sizing).
func SizingFor(budget int64) Sizing {
	mib := budget >> 20
	clamp := func(v, lo, hi int64) int64 { return min(max(v, lo), hi) }
	baseTable := int64(0) // Badger's default
	if mib < 512 {
		baseTable = 1
	}
	return Sizing{
		Budget:          budget,
		HeapLimitMiB:    mib * 3 / 4,
		BlockCacheMiB:   max(mib/4, 1),
		IndexCacheMiB:   max(mib/16, 1),
		MemTableMiB:     clamp(mib/64, 4, 16),
		BaseTableMiB:    baseTable,
		MetaCacheSize:   min(int(budget/16/170), MaxMetaCacheSize),
		MemberCacheSize: int(budget / 16 / 110),
		ListCacheMiB:    int(max(mib/32, 1)),
		PipelineBytes:   clamp(budget/64, 8<<20, 256<<20),
		OutputBytes:     clamp(budget/64, 8<<20, 64<<20),
	}
}

// ApplyBudget sizes from the budget every setting the user did not set
// (set reports whether a key was given in the file, the environment or a
// flag) and returns the sizing. Settings given keep their value: they
// override the budget's share.
func (c *Config) ApplyBudget(machine int64, set func(key string) bool) Sizing {
	s := SizingFor(c.Budget(machine))
	if !set("runtime.memory_limit_mib") {
		c.Runtime.MemoryLimitMiB = s.HeapLimitMiB
	}
	if !set("storage.badger.block_cache_mib") {
		c.Storage.Badger.BlockCacheMiB = s.BlockCacheMiB
	}
	if !set("storage.badger.index_cache_mib") {
		c.Storage.Badger.IndexCacheMiB = s.IndexCacheMiB
	}
	if !set("storage.badger.base_table_mib") {
		c.Storage.Badger.BaseTableMiB = s.BaseTableMiB
	}
	if !set("storage.badger.memtable_mib") {
		c.Storage.Badger.MemTableMiB = s.MemTableMiB
	}
	if !set("actors.meta_cache_size") {
		c.Actors.MetaCacheSize = s.MetaCacheSize
	}
	if !set("actors.member_cache_size") {
		c.Actors.MemberCacheSize = s.MemberCacheSize
	}
	if !set("actors.list_cache_mib") {
		c.Actors.ListCacheMiB = s.ListCacheMiB
	}
	c.Memory.sizing = s
	return s
}

// Sizing returns what ApplyBudget shared out; before it ran (a Config not
// from Load: tests), the sharing of a 1 GiB budget.
func (m Memory) Sizing() Sizing {
	if m.sizing.Budget == 0 {
		return SizingFor(1 << 30)
	}
	return m.sizing
}

// ParseMemory reads a Redis memory value: bytes, or a number with a unit
// (k, kb, m, mb, g, gb; k is 1000 and kb 1024, as Redis has them). An
// empty value is 0.
func ParseMemory(v string) (int64, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mul    int64
	}{{"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}, {"g", 1e9}, {"m", 1e6}, {"k", 1e3}, {"b", 1}}
	mul := int64(1)
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			v, mul = strings.TrimSuffix(v, u.suffix), u.mul
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mul {
		return 0, fmt.Errorf("%q is not a memory size (bytes, or a number with k, kb, m, mb, g or gb)", v)
	}
	return n * mul, nil
}

// MachineMemory returns the bytes the process may use: the smaller of the
// machine's RAM and its memory cgroup's limit (v2 or v1), 0 if neither
// can be read.
func MachineMemory() int64 {
	total := int64(0)
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
		_ = f.Close()
	}
	if lim := cgroupLimit(); lim > 0 && (total == 0 || lim < total) {
		total = lim
	}
	return total
}

// cgroupLimit reads the process's memory cgroup limit (0: none or
// unknown).
func cgroupLimit() int64 {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		parts := strings.SplitN(string(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var file string
		switch {
		case parts[0] == "0" && parts[1] == "": // v2
			file = filepath.Join("/sys/fs/cgroup", parts[2], "memory.max")
		case strings.Contains(","+parts[1]+",", ",memory,"): // v1
			file = filepath.Join("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes")
		default:
			continue
		}
		v, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
		if err == nil && n > 0 && n < 1<<60 { // "max", or v1's huge "unlimited"
			return n
		}
	}
	return 0
}
