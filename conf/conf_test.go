package conf

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/settings"
)

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestLayers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rekv.yaml")
	yaml := "server:\n  port: 7000\n  bind: 127.0.0.2\nstorage:\n  badger:\n    dir: /tmp/x\n    value_log_gc_interval: 1m\nactors:\n  shards: 3\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"REKV_SERVER__PORT=7001", "REKV_ACTORS__SHARDS=5", "OTHER=1"}
	cfg, used, err := Load([]string{"--config", path, "--shards", "7"}, env, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if used != path {
		t.Errorf("config file = %q", used)
	}
	if cfg.Server.Port != 7001 { // env beats file
		t.Errorf("port = %d, want 7001", cfg.Server.Port)
	}
	if cfg.Server.Bind != "127.0.0.2" { // file beats default
		t.Errorf("bind = %q", cfg.Server.Bind)
	}
	if cfg.Actors.Shards != 7 { // flag beats env
		t.Errorf("shards = %d, want 7", cfg.Actors.Shards)
	}
	if cfg.Storage.Badger.ValueLogGCInterval != time.Minute || cfg.Storage.Badger.Dir != "/tmp/x" {
		t.Errorf("badger = %+v", cfg.Storage.Badger)
	}
	if cfg.Storage.Badger.Durability != "everysec" { // default kept
		t.Errorf("durability = %q", cfg.Storage.Badger.Durability)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	env := []string{"REKV_SERVER__PORT=70000", "REKV_STORAGE__BADGER__DURABILITY=sometimes", "REKV_SERVER__PROT=1", "REKV_LOG__LEVEL=loud", "REKV_RUNTIME__MAX_PROCS=-2"}
	_, _, err := Load(nil, env, io.Discard)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"server.port", "storage.badger.durability", "REKV_SERVER__PROT: unknown setting", "log.level", "runtime.max_procs"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
}

// TestEnvNamespace: a REKV_ variable is a setting (an unknown one is an
// error), and the tests' REKVTEST_ switches are outside that namespace.
func TestEnvNamespace(t *testing.T) {
	_, _, err := Load(nil, []string{"REKVTEST_TIKV_PD=127.0.0.1:2379", "REKVTEST_LOAD_SECONDS=9"}, io.Discard)
	if err != nil {
		t.Errorf("test switches refused: %v", err)
	}
	_, _, err = Load(nil, []string{"REKV_TEST_TIKV_PD=127.0.0.1:2379"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "REKV_TEST_TIKV_PD: unknown setting") {
		t.Errorf("unknown REKV_ variable: err = %v", err)
	}
}

func TestExampleFileLoads(t *testing.T) {
	cfg, _, err := Load([]string{"--config", "../rekv.example.yaml"}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Port != 6380 {
		t.Errorf("example port = %d", cfg.Server.Port)
	}
	// The file leaves the budget's shares to it.
	if s := cfg.Memory.Sizing(); cfg.Storage.Badger.BlockCacheMiB != s.BlockCacheMiB || cfg.Actors.MetaCacheSize != s.MetaCacheSize {
		t.Errorf("example: block cache %d MiB, meta cache %d; the budget's %+v", cfg.Storage.Badger.BlockCacheMiB, cfg.Actors.MetaCacheSize, s)
	}
}

func TestTiKVSettings(t *testing.T) {
	cfg, _, err := Load(nil, []string{"REKV_STORAGE__DRIVER=tikv", "REKV_STORAGE__TIKV__PD=pd1:2379,pd2:2379"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.Storage.TiKV.PD, " "); got != "pd1:2379 pd2:2379" || !cfg.Storage.Shared {
		t.Fatalf("pd = %q, shared = %v", got, cfg.Storage.Shared)
	}
	cfg, _, err = Load([]string{"--driver", "tikv", "--pd", "mock://"}, nil, io.Discard)
	if err != nil || len(cfg.Storage.TiKV.PD) != 1 || cfg.Storage.TiKV.PD[0] != "mock://" {
		t.Fatalf("--pd mock:// = %q, %v", cfg.Storage.TiKV.PD, err)
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"REKV_STORAGE__DRIVER=tikv"}, "storage.tikv.pd: must list"},
		{[]string{"REKV_STORAGE__DRIVER=tikv", "REKV_STORAGE__TIKV__PD=nohostport"}, `storage.tikv.pd: "nohostport" is not host:port`},
		{[]string{"REKV_STORAGE__DRIVER=tikv", "REKV_STORAGE__TIKV__PD=mock://,pd:1"}, "storage.tikv.pd: mock:// cannot be mixed"},
		{[]string{"REKV_STORAGE__DRIVER=rocks"}, `storage.driver: must be badger or tikv, got "rocks"`},
	} {
		if _, _, err := Load(nil, tc.env, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.env, err, tc.want)
		}
	}
}

func TestDefaultShards(t *testing.T) {
	for _, c := range []struct{ cpus, want int }{{0, 1}, {1, 1}, {2, 4}, {8, 16}} {
		if got := DefaultShards(c.cpus); got != c.want {
			t.Errorf("DefaultShards(%d) = %d, want %d", c.cpus, got, c.want)
		}
	}
	for _, c := range []struct {
		shards, procs int
		shared        bool
		want          int
	}{{0, 1, false, 1}, {0, 2, false, 4}, {0, 8, false, 16}, {3, 1, false, 3}, {3, 8, false, 3},
		{0, 2, true, SharedShards}, {0, 1, true, SharedShards}, {3, 2, true, 3}} {
		if got := (Actors{Shards: c.shards}).ShardCount(c.procs, c.shared); got != c.want {
			t.Errorf("Actors{Shards: %d}.ShardCount(%d, %v) = %d, want %d", c.shards, c.procs, c.shared, got, c.want)
		}
	}
	if got := Default().Actors.Shards; got != 0 {
		t.Errorf("default shards %d, want 0 (from the CPUs)", got)
	}
}

func TestClusterSettings(t *testing.T) {
	cfg, _, err := Load([]string{"--cluster", "--port", "7000"}, []string{"REKV_CLUSTER__NODE_TIMEOUT=2s", "REKV_CLUSTER__ANNOUNCE_PORT=7100"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Cluster.Enabled || cfg.Cluster.NodeTimeout != 2*time.Second || cfg.Cluster.AnnouncePort != 7100 {
		t.Fatalf("cluster settings: %+v", cfg.Cluster)
	}
	if cfg, _, err := Load(nil, nil, io.Discard); err != nil || cfg.Cluster.Enabled {
		t.Fatalf("cluster mode on by default (%v)", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		key  string
	}{
		{func(c *Config) { c.Cluster.NodeTimeout = time.Millisecond }, "cluster.node_timeout"},
		{func(c *Config) { c.Cluster.AnnouncePort = 70000 }, "cluster.announce_port"},
		{func(c *Config) { c.Cluster.Enabled, c.Server.Bind = true, "0.0.0.0" }, "cluster.announce_ip"},
		{func(c *Config) { c.Cluster.Enabled, c.Server.Bind = true, "127.0.0.1 ::1" }, "cluster.announce_ip"},
	} {
		c := Default()
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: %v", tc.key, err)
		}
	}
	c := Default()
	c.Cluster.Enabled, c.Server.Bind, c.Cluster.AnnounceIP = true, "0.0.0.0", "10.0.0.7"
	if err := c.Validate(); err != nil {
		t.Fatalf("announce_ip with a wildcard bind: %v", err)
	}
}

// TestEverySettingHasARow: the Config struct and the settings table
// (package settings) name the same keys, and each default in the table is
// what Default gives.
func TestEverySettingHasARow(t *testing.T) {
	rows := settings.ByKey(settings.Table())
	values := Default().Flatten()
	for key, v := range values {
		s, ok := rows[key]
		if !ok {
			t.Errorf("%s: a Config field with no row in the settings table", key)
			continue
		}
		want, err := s.Parse(s.Default)
		if err != nil {
			t.Errorf("%s: default %q: %v", key, s.Default, err)
			continue
		}
		if fmt.Sprint(want) != fmt.Sprint(v) {
			t.Errorf("%s: Default() = %v, the table's default %v", key, v, want)
		}
	}
	for key := range rows {
		if _, ok := values[key]; !ok {
			t.Errorf("%s: a row of the settings table with no Config field", key)
		}
	}
}

// TestTableBoundsAreChecked: a value out of its row's bounds, or not one
// of its values, is refused naming its key.
func TestTableBoundsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want string
	}{
		{"REKV_SERVER__PORT=70000", "server.port: must be 0..65535, got 70000"},
		{"REKV_GC__BATCH_SIZE=0", "gc.batch_size: must be positive, got 0"},
		{"REKV_STORAGE__TIKV__GC_LEASE_TERM=10ms", "storage.tikv.gc_lease_term: must be at least 1s, got 10ms"},
		{"REKV_LOG__FORMAT=xml", `log.format: must be text or json, got "xml"`},
		{"REKV_SERVER__BUSY_REPLY_THRESHOLD=-1", "server.busy_reply_threshold: must not be negative (0 disables), got -1"},
	} {
		_, _, err := Load(nil, []string{tc.env}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.env, err, tc.want)
		}
	}
}
