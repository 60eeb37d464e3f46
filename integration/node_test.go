package integration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nodeDir returns integration/node with its packages installed (npm ci
// from the package-lock when node_modules is missing). CI installs node
// and npm (.ci/run); without them the real-client tests cannot run and
// say so.
func nodeDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: the node client tests need it (.ci/run installs it)")
	}
	dir, err := filepath.Abs("node")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	return dir
}

// runNode runs a script of integration/node against the server at addr.
func runNode(t *testing.T, dir, script, addr string) string {
	t.Helper()
	return runNodeEnv(t, dir, script, "REDIS_PORT="+addr[strings.LastIndexByte(addr, ':')+1:])
}

// runNodeEnv runs a script of integration/node with env added to the
// environment.
func runNodeEnv(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s (%v): %v\n%s", script, env, err, out)
	}
	return string(out)
}

// TestNodeRedisClientSideCache drives node-redis 5 with its client-side
// cache (RESP3, CLIENT TRACKING ON): hits served locally, invalidations
// from other connections' writes, the client's own writes and FLUSHALL,
// and 300 write-then-read rounds that never see a stale value. The same
// script runs on redis-server first, so it checks what Redis does.
func TestNodeRedisClientSideCache(t *testing.T) {
	dir := nodeDir(t)
	t.Log("redis-server: ", runNode(t, dir, "csc.mjs", redisServer(t)))
	forEachDriver(t, func(t *testing.T, addr string) {
		t.Log(runNode(t, dir, "csc.mjs", addr))
	})
}
