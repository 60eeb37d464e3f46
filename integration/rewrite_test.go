package integration

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
	"github.com/rekv/rekv/node"
)

// startFromFile starts a Badger node from a YAML configuration file, as
// `rekv --config file` does.
func startFromFile(t *testing.T, file string) *node.Node {
	t.Helper()
	cfg, used, err := conf.Load([]string{"--config", file, "--port", strconv.Itoa(freePort(t))}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.Start(cfg, used, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = n.Close(ctx)
	})
	return n
}

// TestConfigRewrite: parameters under server.redis apply at start; CONFIG
// REWRITE writes what CONFIG SET changed back into the file — rekv's own
// settings in place, the others under server.redis — keeping its
// comments; a node started from the rewritten file has those values;
// without a file, REWRITE says so as Redis does.
func TestConfigRewrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "rekv.yaml")
	orig := `# rekv test configuration
server:
  bind: 127.0.0.1
  # the password clients must AUTH with
  requirepass: ""
  redis:
    hash-max-listpack-entries: "256" # an encoding knob
storage:
  badger:
    dir: ` + filepath.Join(dir, "data") + `
    durability: "no"
`
	if err := os.WriteFile(file, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	n1 := startFromFile(t, file)
	c := newClient(t, n1.Addr(), 2)
	if v := c.ConfigGet(ctx, "hash-max-listpack-entries").Val(); v["hash-max-listpack-entries"] != "256" {
		t.Fatalf("server.redis not applied at start: %v", v)
	}
	for _, kv := range [][2]string{{"hash-max-listpack-entries", "128"}, {"maxmemory", "100mb"}, {"timeout", "7"},
		{"notify-keyspace-events", "KEA"}, {"requirepass", "s3cret pass"}} {
		if err := c.ConfigSet(ctx, kv[0], kv[1]).Err(); err != nil {
			t.Fatalf("CONFIG SET %s: %v", kv[0], err)
		}
	}
	if err := c.Do(ctx, "CONFIG", "REWRITE").Err(); err != nil {
		t.Fatalf("CONFIG REWRITE: %v", err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"# rekv test configuration", "# the password clients must AUTH with", "# an encoding knob"} {
		if !strings.Contains(text, want) {
			t.Errorf("rewritten file lost the comment %q:\n%s", want, text)
		}
	}
	cfg, _, err := conf.Load([]string{"--config", file}, nil, io.Discard)
	if err != nil {
		t.Fatalf("rewritten file does not load: %v\n%s", err, text)
	}
	if cfg.Server.RequirePass != "s3cret pass" || cfg.Server.Timeout != 7 || cfg.Server.NotifyKeyspaceEvents != "AKE" ||
		cfg.Server.Redis["maxmemory"] != "104857600" || cfg.Server.Redis["hash-max-listpack-entries"] != "128" {
		t.Fatalf("rewritten settings: %+v\n%s", cfg.Server, text)
	}

	closeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := n1.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	c2 := redis.NewClient(&redis.Options{Addr: startFromFile(t, file).Addr(), Password: "s3cret pass", MaxRetries: -1})
	defer c2.Close()
	got := c2.ConfigGet(ctx, "maxmemory").Val()
	if got["maxmemory"] != "104857600" {
		t.Fatalf("restarted from the rewritten file: maxmemory %v", got)
	}

	plain := newClient(t, startNode(t, "badger", nil).Addr(), 2)
	if err := plain.Do(ctx, "CONFIG", "REWRITE").Err(); err == nil || err.Error() != "ERR The server is running without a config file" {
		t.Fatalf("CONFIG REWRITE without a file: %v", err)
	}
}
