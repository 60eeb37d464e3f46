package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestSwapDBWakesAndWatches runs SWAPDB with a client blocked on a key
// and clients WATCHing keys, on rekv (both drivers) and on redis-server,
// and requires the same transcript: a waiter in db 0 is served by the list
// db 1 brings in (and one on a key still empty keeps waiting); a WATCH
// breaks when its key exists in either database and survives when it
// exists in neither.
func TestSwapDBWakesAndWatches(t *testing.T) {
	want := swapScenario(t, redisServer(t))
	if !strings.Contains(want, "blpop=*2") || !strings.Contains(want, "exec-missing=*1") ||
		!strings.Contains(want, "exec-present=*-1") {
		t.Fatalf("redis-server transcript not as expected:\n%s", want)
	}
	forEachDriver(t, func(t *testing.T, addr string) {
		if got := swapScenario(t, addr); got != want {
			t.Fatalf("transcript:\n%s\nredis-server:\n%s", got, want)
		}
	})
}

func swapScenario(t *testing.T, addr string) string {
	var out []string
	log := func(name, reply string) { out = append(out, name+"="+strings.ReplaceAll(reply, "\r\n", " ")) }
	admin, waiter, still := dialRaw(t, addr), dialRaw(t, addr), dialRaw(t, addr)
	w1, w2 := dialRaw(t, addr), dialRaw(t, addr)
	admin.do("FLUSHALL")
	admin.do("SELECT", "1")
	admin.do("RPUSH", "q", "a", "b")
	admin.do("SET", "present", "1")
	// Blocked in db 0 on q (empty there) and on nothing.
	waiter.write(encode("BLPOP", "q", "0"))
	still.write(encode("BLPOP", "nothing", "0"))
	admin.do("SELECT", "0")
	blockedUntil(t, admin, 2)
	log("watch-missing", w1.do("WATCH", "missing"))
	log("watch-present", w2.do("WATCH", "present"))
	log("swapdb", admin.do("SWAPDB", "0", "1"))
	log("blpop", waiter.reply())
	blockedUntil(t, admin, 1)
	for i, c := range []*raw{w1, w2} {
		c.do("MULTI")
		c.do("PING")
		log([]string{"exec-missing", "exec-present"}[i], c.do("EXEC"))
	}
	log("left", admin.do("LRANGE", "q", "0", "-1"))
	admin.do("RPUSH", "nothing", "x")
	log("still", still.reply())
	admin.do("FLUSHALL")
	return strings.Join(out, "\n")
}

// blockedUntil waits for INFO's blocked_clients to reach n.
func blockedUntil(t *testing.T, c *raw, n int) {
	t.Helper()
	want := fmt.Sprintf("blocked_clients:%d\r", n)
	for i := 0; i < 500; i++ {
		if strings.Contains(c.do("INFO", "clients"), want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("blocked_clients never reached %d", n)
}
