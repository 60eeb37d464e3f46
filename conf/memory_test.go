package conf

import (
	"strings"
	"testing"
)

func TestParseMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"", 0, false}, {"0", 0, false}, {"1024", 1024, false}, {"1kb", 1024, false}, {"1k", 1000, false},
		{"256mb", 256 << 20, false}, {"256MB", 256 << 20, false}, {"2g", 2e9, false}, {"2gb", 2 << 30, false},
		{"12b", 12, false}, {"-1", 0, true}, {"1tb", 0, true}, {"x", 0, true}, {"99999999999gb", 0, true},
	} {
		got, err := ParseMemory(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestBudget(t *testing.T) {
	c := Default()
	if got := c.Budget(8 << 30); got != 2<<30 {
		t.Errorf("a quarter of 8 GiB: got %d", got)
	}
	if got := c.Budget(512 << 20); got != 256<<20 {
		t.Errorf("at least 256 MiB: got %d", got)
	}
	if got := c.Budget(0); got != 1<<30 {
		t.Errorf("unknown machine: got %d", got)
	}
	c.Server.Redis = map[string]string{"maxmemory": "300mb"}
	if got := c.Budget(8 << 30); got != 300<<20 {
		t.Errorf("maxmemory 300mb: got %d", got)
	}
	c.Memory.BudgetMiB = 100
	if got := c.Budget(8 << 30); got != 100<<20 {
		t.Errorf("budget_mib wins over maxmemory: got %d", got)
	}
}

// The budget's shares add up to less than it, and small budgets keep
// Badger's memtables and tables workable.
func TestSizingShares(t *testing.T) {
	for _, mib := range []int64{256, 1024, 6144, 65536} {
		s := SizingFor(mib << 20)
		caches := s.BlockCacheMiB + s.IndexCacheMiB + 6*s.MemTableMiB + int64(s.ListCacheMiB) +
			(int64(s.MetaCacheSize)*170+int64(s.MemberCacheSize)*110+s.ClientsBytes)>>20
		if caches > mib*3/4 || s.HeapLimitMiB >= mib {
			t.Errorf("budget %d MiB: caches and clients take %d MiB, heap limit %d MiB", mib, caches, s.HeapLimitMiB)
		}
		if s.MemTableMiB < 4 || s.MemTableMiB > 16 || s.PipelineBytes < 8<<20 || s.OutputBytes > 64<<20 {
			t.Errorf("budget %d MiB: %+v", mib, s)
		}
	}
	if small, big := SizingFor(256<<20).MetaCacheSize, SizingFor(6<<30).MetaCacheSize; small != 256<<20/16/170 || big != MaxMetaCacheSize {
		t.Errorf("meta cache of B/16 at 170 bytes an entry, at most %d: %d at 256 MiB, %d at 6 GiB", MaxMetaCacheSize, small, big)
	}
	if SizingFor(256<<20).BaseTableMiB != 1 || SizingFor(1<<30).BaseTableMiB != 0 {
		t.Error("tables of 1 MiB under a 512 MiB budget, Badger's default above")
	}
}

// Load sizes from the budget what is not set, and leaves what is.
func TestLoadAppliesBudget(t *testing.T) {
	c, _, err := Load(nil, []string{"REKV_MEMORY__BUDGET_MIB=512", "REKV_ACTORS__META_CACHE_SIZE=1000"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := SizingFor(512 << 20)
	if c.Actors.MetaCacheSize != 1000 {
		t.Errorf("meta_cache_size set to 1000, got %d", c.Actors.MetaCacheSize)
	}
	if c.Storage.Badger.BlockCacheMiB != 128 || c.Actors.MemberCacheSize != s.MemberCacheSize ||
		c.Runtime.MemoryLimitMiB != 384 || c.Memory.Sizing().ClientsBytes != 0 {
		t.Errorf("budget 512 MiB: block cache %d MiB, member cache %d, Go limit %d MiB, clients %d",
			c.Storage.Badger.BlockCacheMiB, c.Actors.MemberCacheSize, c.Runtime.MemoryLimitMiB, c.Memory.Sizing().ClientsBytes)
	}
	c, _, err = Load(nil, []string{"GOMEMLIMIT=100MiB", "REKV_MEMORY__BUDGET_MIB=512"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runtime.MemoryLimitMiB != 0 {
		t.Errorf("GOMEMLIMIT given: the runtime keeps it, got memory_limit_mib %d", c.Runtime.MemoryLimitMiB)
	}
	if _, _, err := Load(nil, []string{"REKV_SERVER__REDIS__MAXMEMORY=lots"}, nil); err == nil || !strings.Contains(err.Error(), "maxmemory") {
		t.Errorf("a bad maxmemory: %v", err)
	}
	if Default().Memory.Sizing().ClientsBytes != 0 {
		t.Error("a config not from Load has no bound on all clients (maxmemory-clients 0)")
	}
}

func TestMachineMemory(t *testing.T) {
	if MachineMemory() <= 0 {
		t.Error("no memory size read from /proc/meminfo or the cgroup")
	}
}

// TestClientsUnboundedByDefault: the budget leaves maxmemory-clients at
// 0 (off), Redis's default: a legal 511 MiB SET next to a 256 MiB one
// must not evict its client on a machine whose budget is 6 GiB.
func TestClientsUnboundedByDefault(t *testing.T) {
	for _, budget := range []int64{256 << 20, 1 << 30, 6 << 30, 64 << 30} {
		if got := SizingFor(budget).ClientsBytes; got != 0 {
			t.Errorf("budget %d MiB: maxmemory-clients %d, want 0", budget>>20, got)
		}
	}
}
