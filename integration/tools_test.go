package integration

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
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
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		host, port := hostPort(addr)
		n := "20000"
		if onTiKV(t) {
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

// TestRedisCLIHelp runs redis-cli's "help @group" and "help command" on
// rekv and on redis-server: redis-cli builds them from COMMAND DOCS, and
// the argument synopsis it prints (the same data it shows as hints while
// typing) must be Redis's for every command of the group. Summaries are
// rekv's own words, so they are only checked to be there.
func TestRedisCLIHelp(t *testing.T) {
	cli := redisTool(t, "redis-cli")
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	help := func(addr, topic string) (synopses []string, summaries int) {
		host, port := hostPort(addr)
		cmd := exec.Command(cli, "-h", host, "-p", port)
		cmd.Stdin = strings.NewReader("help " + topic + "\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("redis-cli help %s: %v\n%s", topic, err, out)
		}
		for _, line := range strings.Split(ansi.ReplaceAllString(string(out), ""), "\n") {
			switch {
			case strings.HasPrefix(line, "  summary: ") && len(line) > len("  summary: "):
				summaries++
			case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && !strings.Contains(line, ":"):
				synopses = append(synopses, strings.TrimSpace(line))
			}
		}
		return synopses, summaries
	}
	red := redisServer(t)
	rc := newClient(t, red, 2)
	n := startNode(t, "badger", nil)
	for _, topic := range []string{"@hash", "@string", "@list", "@set", "@sorted-set", "@geo", "@hyperloglog", "set", "xadd", "zadd", "georadius"} {
		want, _ := help(red, topic)
		got, summaries := help(n.Addr(), topic)
		// Commands newer than the redis-server here (Redis 7.4's and
		// 8.0's hash-field TTLs) are rekv's own lines: left out.
		var newer int
		got = slices.DeleteFunc(got, func(l string) bool {
			name := strings.Fields(l)[0]
			if info, err := rc.Do(context.Background(), "COMMAND", "INFO", name).Slice(); err == nil && len(info) == 1 && info[0] == nil {
				newer++
				return true
			}
			return false
		})
		summaries -= newer
		if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("help %s synopses:\n%s\nredis-server:\n%s", topic, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if summaries != len(got) {
			t.Fatalf("help %s: %d summaries for %d commands", topic, summaries, len(got))
		}
	}
}

// TestCommandDocsComplete: COMMAND DOCS documents every command (COMMAND
// COUNT of them) and their subcommands with a summary, group, version and
// complexity.
func TestCommandDocsComplete(t *testing.T) {
	n := startNode(t, "badger", nil)
	c := newClient(t, n.Addr(), 2)
	ctx := context.Background()
	count, err := c.Do(ctx, "command", "count").Int()
	must(t, err)
	docs, err := c.Do(ctx, "command", "docs").Slice()
	must(t, err)
	if len(docs) != 2*count {
		t.Fatalf("COMMAND DOCS has %d entries for %d commands", len(docs)/2, count)
	}
	var check func(name string, doc any)
	check = func(name string, doc any) {
		fields, _ := doc.([]any)
		got := map[string]any{}
		for i := 0; i+1 < len(fields); i += 2 {
			got[fmt.Sprint(fields[i])] = fields[i+1]
		}
		for _, f := range []string{"summary", "since", "group", "complexity"} {
			if s, _ := got[f].(string); s == "" {
				t.Errorf("%s: no %s", name, f)
			}
		}
		if subs, ok := got["subcommands"].([]any); ok {
			for i := 0; i+1 < len(subs); i += 2 {
				check(fmt.Sprint(subs[i]), subs[i+1])
			}
		}
	}
	for i := 0; i+1 < len(docs); i += 2 {
		check(fmt.Sprint(docs[i]), docs[i+1])
	}
}
