package integration

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rekv/rekv/resp"
)

// scripts are command sequences whose replies must equal Redis's byte for
// byte, in RESP2 and RESP3: one file per script in testdata/, one command
// per line (quoted like redis-cli), "#" lines are comments. Each script
// starts on empty databases. A line starting with "~ " has an unordered
// reply (Redis's hash order is not ours): its top-level elements are
// compared as a sorted multiset. Commands whose replies depend on time, ids
// or randomness are left to other tests. Blocking commands appear only
// where they do not wait (with data, or an error); waiting is tested in
// list_test.go. The pubsub scripts hold the replies a subscriber gets to
// its own commands.
func scripts(t *testing.T) map[string][]string {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no differential scripts in testdata: %v", err)
	}
	m := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, line := range strings.Split(string(b), "\n") {
			if line != "" && !strings.HasPrefix(line, "#") {
				lines = append(lines, line)
			}
		}
		m[strings.TrimSuffix(filepath.Base(f), ".txt")] = lines
	}
	return m
}

// TestDifferentialAgainstRedis runs every script on rekv and on Debian's
// redis-server and requires identical reply bytes.
func TestDifferentialAgainstRedis(t *testing.T) {
	redisAddr := redisServer(t)
	forEachDriver(t, func(t *testing.T, addr string) {
		for name, script := range scripts(t) {
			for _, proto := range []string{"2", "3"} {
				t.Run(name+"/resp"+proto, func(t *testing.T) {
					want := dialRaw(t, redisAddr)
					got := dialRaw(t, addr)
					for _, c := range []*raw{want, got} {
						c.do("FLUSHALL")
						if proto == "3" {
							c.do("HELLO", "3")
						}
					}
					for _, line := range script {
						args, ok := resp.SplitArgs([]byte(line), nil)
						if !ok {
							t.Fatalf("bad script line %q", line)
						}
						var parts []string
						for _, a := range args {
							parts = append(parts, string(a))
						}
						unordered := len(parts) > 0 && parts[0] == "~"
						if unordered {
							parts = parts[1:]
						}
						w, g := want.do(parts...), got.do(parts...)
						if unordered {
							w, g = sortedReply(t, w), sortedReply(t, g)
						}
						if w != g {
							t.Errorf("%s\n redis: %q\n  rekv: %q", line, w, g)
						}
					}
				})
			}
		}
	})
}

// sortedReply renders an aggregate reply with its top-level elements (map
// pairs kept together) sorted, for replies whose order is unspecified.
func sortedReply(t *testing.T, reply string) string {
	if reply == "" || !strings.ContainsRune("*~%", rune(reply[0])) {
		return reply
	}
	r := bufio.NewReader(strings.NewReader(reply))
	head, _ := r.ReadString('\n')
	var elems []string
	for {
		e, err := readReply(r)
		if err != nil {
			break
		}
		if head[0] == '%' {
			v, err := readReply(r)
			if err != nil {
				t.Fatalf("odd map %q", reply)
			}
			e += v
		}
		elems = append(elems, e)
	}
	slices.Sort(elems)
	return head + strings.Join(elems, "")
}
