package integration

import (
	"strconv"
	"strings"
	"testing"
)

// TestPipelineRepliesInOneWrite: the replies of commands a client sent
// in one packet leave in one write, as Redis sends them (it runs all
// that one read brought before writing), even when some run on the
// event loop and others on the shards: ioredis's own test select.ts
// pipelines SET x4 then INFO and failed when they came in two writes.
// The server's total_writes_processed, read on another connection
// around each batch, counts the batch's writes (plus one: the reply
// of the INFO before it).
func TestPipelineRepliesInOneWrite(t *testing.T) {
	forEachDriver(t, func(t *testing.T, addr string) {
		a, b := dialRaw(t, addr), dialRaw(t, addr)
		writes := func() int {
			t.Helper()
			info := b.do("INFO", "stats")
			for _, line := range strings.Split(info, "\r\n") {
				if v, ok := strings.CutPrefix(line, "total_writes_processed:"); ok {
					n, err := strconv.Atoi(v)
					if err != nil {
						t.Fatalf("total_writes_processed:%s", v)
					}
					return n
				}
			}
			t.Fatalf("no total_writes_processed in INFO stats:\n%s", info)
			return 0
		}
		batches := []struct {
			name string
			cmds [][]string
		}{
			{"SET x4 + INFO", [][]string{{"SET", "a", "1"}, {"SET", "b", "2"}, {"SET", "c", "3"}, {"SET", "d", "4"}, {"INFO", "keyspace"}}},
			{"GET + DBSIZE + GET", [][]string{{"GET", "a"}, {"DBSIZE"}, {"GET", "b"}}},
			{"INCR on two keys + MGET", [][]string{{"INCR", "n1"}, {"INCR", "n2"}, {"MGET", "n1", "n2", "a"}}},
		}
		for _, batch := range batches {
			split := 0
			for try := range 20 {
				var packet string
				for _, c := range batch.cmds {
					packet += encode(c...)
				}
				before := writes()
				a.write(packet)
				for range batch.cmds {
					if r := a.reply(); strings.HasPrefix(r, "-") {
						t.Fatalf("%s, try %d: %q", batch.name, try, r)
					}
				}
				if n := writes() - before - 1; n != 1 {
					split++
				}
			}
			if split > 0 {
				t.Errorf("%s: the replies left in more than one write in %d of 20 tries", batch.name, split)
			}
		}
	})
}
