package integration

import "testing"

// TestDebugPopulate: DEBUG POPULATE count [prefix [size]] creates
// prefix:N = "value:N" (cut or padded with zero bytes to size), keeps the
// keys that exist, breaks WATCHes of the keys it creates, and refuses bad
// counts and sizes with Redis's texts; 20,000 keys of 1,000 bytes (more
// than one storage transaction holds; Redis's redis-cli test writes
// 100,000, which TiKV's in-process mock under the race detector takes
// over a minute for). On redis-server and rekv.
func TestDebugPopulate(t *testing.T) {
	besideRedis(t, func(t *testing.T, who, a string) {
		c, w := dialRaw(t, a), dialRaw(t, a)
		c.do("FLUSHALL")
		c.do("SET", "key:3", "keep")
		w.do("WATCH", "key:5")
		if got := c.do("DEBUG", "POPULATE", "1000"); got != "+OK\r\n" {
			t.Fatalf("%s: DEBUG POPULATE 1000 = %q", who, got)
		}
		w.do("MULTI")
		w.do("PING")
		if got := w.do("EXEC"); got != "*-1\r\n" {
			t.Errorf("%s: EXEC watching a key POPULATE created = %q, want a nil array", who, got)
		}
		for _, kv := range [][2]string{{"DBSIZE", ":1000\r\n"}, {"key:3", "$4\r\nkeep\r\n"}, {"key:999", "$9\r\nvalue:999\r\n"}} {
			var got string
			if kv[0] == "DBSIZE" {
				got = c.do("DBSIZE")
			} else {
				got = c.do("GET", kv[0])
			}
			if got != kv[1] {
				t.Errorf("%s: %s = %q, want %q", who, kv[0], got, kv[1])
			}
		}
		c.do("DEBUG", "POPULATE", "3", "p", "10")
		c.do("DEBUG", "POPULATE", "2", "q", "3")
		for key, want := range map[string]string{"p:2": "$10\r\nvalue:2\x00\x00\x00\r\n", "q:1": "$3\r\nval\r\n"} {
			if got := c.do("GET", key); got != want {
				t.Errorf("%s: GET %s = %q, want %q", who, key, got, want)
			}
		}
		errRange := "-ERR value is out of range, must be positive\r\n"
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"-1"}, errRange},
			{[]string{"x"}, errRange},
			{[]string{"1", "a", "-1"}, errRange},
			{[]string{"1", "a", "2", "3"}, "-ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.\r\n"},
			{[]string{"0"}, "+OK\r\n"},
		} {
			if got := c.do(append([]string{"DEBUG", "POPULATE"}, tc.args...)...); got != tc.want {
				t.Errorf("%s: DEBUG POPULATE %v = %q, want %q", who, tc.args, got, tc.want)
			}
		}
		c.do("FLUSHALL")
		if got := c.do("DEBUG", "POPULATE", "20000", "key", "1000"); got != "+OK\r\n" {
			t.Fatalf("%s: DEBUG POPULATE 20000 key 1000 = %q", who, got)
		}
		if got := c.do("DBSIZE"); got != ":20000\r\n" {
			t.Errorf("%s: DBSIZE after 20,000 = %q", who, got)
		}
		if got := c.do("STRLEN", "key:19999"); got != ":1000\r\n" {
			t.Errorf("%s: STRLEN key:19999 = %q", who, got)
		}
		c.do("FLUSHALL")
	})
}
