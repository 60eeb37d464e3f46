package integration

import (
	"regexp"
	"testing"
)

// TestDebugDigest: DEBUG DIGEST and DIGEST-VALUE behave as Redis's test
// suite relies on, checked on redis-server beside rekv: 40 zeros for an
// empty dataset and a missing key; a copy digests as its source; a
// change of content, of order (a list) or of expiry changes the digest;
// the same members added in another order (a set, a hash) do not; data
// in another database counts in DIGEST.
func TestDebugDigest(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c := dialRaw(t, a)
		hex40 := regexp.MustCompile(`^[0-9a-f]{40}$`)
		const zeros = "0000000000000000000000000000000000000000"
		c.do("FLUSHALL")
		digest := func() string {
			t.Helper()
			s := c.do("DEBUG", "DIGEST")
			if len(s) < 3 || !hex40.MatchString(s[1:len(s)-2]) {
				t.Fatalf("%s: DEBUG DIGEST = %q", who, s)
			}
			return s[1 : len(s)-2]
		}
		values := func(keys ...string) string {
			t.Helper()
			return c.do(append([]string{"DEBUG", "DIGEST-VALUE"}, keys...)...)
		}
		if got := digest(); got != zeros {
			t.Errorf("%s: empty dataset digest %s", who, got)
		}
		if got := values("nokey"); got != "*1\r\n+"+zeros+"\r\n" {
			t.Errorf("%s: missing key: %q", who, got)
		}
		if got := values(); got != "*0\r\n" {
			t.Errorf("%s: no keys: %q", who, got)
		}
		c.do("RPUSH", "l", "a", "b", "c")
		c.do("RPUSH", "l2", "c", "b", "a")
		c.do("COPY", "l", "lc")
		c.do("SADD", "s1", "x", "y", "z")
		c.do("SADD", "s2", "z", "y", "x")
		c.do("HSET", "h1", "f", "1", "g", "2")
		c.do("HSET", "h2", "g", "2", "f", "1")
		c.do("ZADD", "z", "1", "m")
		c.do("SET", "str", "v")
		same := func(x, y string) bool {
			v := values(x, y)
			return len(v) >= 90 && v[5:45] == v[48:88]
		}
		for _, p := range [][2]string{{"l", "lc"}, {"s1", "s2"}, {"h1", "h2"}} {
			if !same(p[0], p[1]) {
				t.Errorf("%s: %s and %s digest differently: %q", who, p[0], p[1], values(p[0], p[1]))
			}
		}
		if same("l", "l2") {
			t.Errorf("%s: a list and its reverse digest the same", who)
		}
		before := digest()
		c.do("EXPIRE", "lc", "1000")
		if same("l", "lc") {
			t.Errorf("%s: an expiry does not change a value's digest", who)
		}
		withTTL := digest()
		if withTTL == before {
			t.Errorf("%s: an expiry does not change the dataset's digest", who)
		}
		c.do("PERSIST", "lc")
		if got := digest(); got != before {
			t.Errorf("%s: PERSIST did not bring the digest back: %s, was %s", who, got, before)
		}
		c.do("SELECT", "3")
		c.do("SET", "other", "db")
		c.do("SELECT", "0")
		if got := digest(); got == before {
			t.Errorf("%s: a key in database 3 does not change DIGEST", who)
		}
		c.do("ZADD", "z", "2", "m")
		c.do("FLUSHALL")
		if got := digest(); got != zeros {
			t.Errorf("%s: digest after FLUSHALL %s", who, got)
		}
	})
}
