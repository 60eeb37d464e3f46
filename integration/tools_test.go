package integration

import (
	"os/exec"
	"strings"
	"testing"
)

// redisTool finds a redis-tools binary. CI installs redis-tools (.ci/run).
func redisTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (.ci/run installs redis-tools)", name)
	}
	return p
}

func hostPort(addr string) (string, string) {
	i := strings.LastIndexByte(addr, ':')
	return addr[:i], addr[i+1:]
}

// TestRedisCLI feeds commands to redis-cli as a person would type them.
func TestRedisCLI(t *testing.T) {
	cli := redisTool(t, "redis-cli")
	forEachDriver(t, func(t *testing.T, addr string) {
		host, port := hostPort(addr)
		cmd := exec.Command(cli, "-h", host, "-p", port)
		cmd.Stdin = strings.NewReader("SET greeting hello\nGET greeting\nINCR greeting\nAPPEND greeting !\nKEYS *\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("redis-cli: %v\n%s", err, out)
		}
		want := "OK\nhello\nERR value is not an integer or out of range\n\n6\ngreeting\n"
		if string(out) != want {
			t.Fatalf("redis-cli output %q, want %q", out, want)
		}
	})
}

// TestRedisBenchmark runs redis-benchmark's pipelined SET, GET, INCR and
// MSET to completion (small, bounded counts) and checks it reports no error.
func TestRedisBenchmark(t *testing.T) {
	bench := redisTool(t, "redis-benchmark")
	forEachDriver(t, func(t *testing.T, addr string) {
		host, port := hostPort(addr)
		n := "20000"
		if strings.HasSuffix(t.Name(), "/tikv") {
			n = "2000" // the in-process mock cluster under -race is ~50x slower
		}
		cmd := exec.Command(bench, "-h", host, "-p", port, "-q", "-n", n, "-c", "20", "-P", "16",
			"-r", "1000", "-t", "set,get,incr,mset")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("redis-benchmark: %v\n%s", err, out)
		}
		s := string(out)
		for _, test := range []string{"SET:", "GET:", "INCR:", "MSET (10 keys):"} {
			if !strings.Contains(s, test) {
				t.Errorf("no %s result in %q", test, s)
			}
		}
		if strings.Contains(strings.ToLower(s), "error") {
			t.Errorf("redis-benchmark reported an error:\n%s", s)
		}
	})
}
