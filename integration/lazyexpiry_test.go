package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLazyExpiryOfScanAndPause: SCAN and RANDOMKEY delete the expired
// keys they pass over (DBSIZE, which counts a stored expired key, drops;
// Redis's unit/expire checks the DELs in the replication stream), and
// during CLIENT PAUSE WRITE no key is expired, by the GC or by a read,
// though it reads as expired; after the pause a read deletes it (unit/
// pause). On redis-server and rekv.
func TestLazyExpiryOfScanAndPause(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		r := dialRaw(t, a)
		expired := func(n int) {
			t.Helper()
			for deadline := time.Now().Add(5 * time.Second); !strings.Contains(r.do("INFO", "stats"), fmt.Sprintf("\r\nexpired_keys:%d\r\n", n)); {
				if time.Now().After(deadline) {
					t.Fatalf("%s: expired_keys, want %d: %q", who, n, r.do("INFO", "stats"))
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		r.do("FLUSHALL")
		r.do("CONFIG", "RESETSTAT")
		r.do("DEBUG", "SET-ACTIVE-EXPIRE", "0")
		r.do("SET", "foo1", "bar", "PX", "1")
		r.do("SET", "foo2", "bar", "PX", "1")
		time.Sleep(10 * time.Millisecond)
		var got []string
		got = append(got, r.do("DBSIZE"), r.do("SCAN", "0"), r.do("DBSIZE"))
		expired(2)
		r.do("SET", "r1", "bar", "PX", "1")
		time.Sleep(10 * time.Millisecond)
		got = append(got, r.do("DBSIZE"), r.do("RANDOMKEY"), r.do("DBSIZE"))
		expired(3)
		r.do("DEBUG", "SET-ACTIVE-EXPIRE", "1")
		r.do("SET", "p1", "bar", "PX", "20")
		r.do("CLIENT", "PAUSE", "20000", "WRITE")
		time.Sleep(300 * time.Millisecond) // GC passes
		got = append(got, r.do("GET", "p1"), r.do("DBSIZE"))
		if info := r.do("INFO", "stats"); !strings.Contains(info, "\r\nexpired_keys:3\r\n") {
			t.Errorf("%s: a key expired during the pause: %q", who, info)
		}
		r.do("CLIENT", "UNPAUSE")
		got = append(got, r.do("GET", "p1"))
		expired(4)
		got = append(got, r.do("DBSIZE"))
		want := []string{":2\r\n", "*2\r\n$1\r\n0\r\n*0\r\n", ":0\r\n", ":1\r\n", "$-1\r\n", ":0\r\n",
			"$-1\r\n", ":1\r\n", "$-1\r\n", ":0\r\n"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %q\nwant %q", who, got, want)
		}
	})
}
