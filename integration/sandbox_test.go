package integration

import (
	"strings"
	"sync"
	"testing"
)

// TestSandboxTricksLeaveScriptingWhole runs the sandbox tricks
// (testdata/scripting-sandbox.txt: assigning redis or _G, rawset on the
// globals, inserting into a library, swapping metatables...) many times
// over several connections, so every pooled Lua state meets them, then
// requires every scripting and functions script to answer as Redis does
// on the same server, redis.call to work every time, and a library
// loaded afterwards to be found. Before the sandbox made every table
// reachable from the globals read-only, "redis = function() ... end"
// replaced the library on one pooled state (an existing global was
// assigned raw) and later scripts failed on some states only.
func TestSandboxTricksLeaveScriptingWhole(t *testing.T) {
	all := scripts(t)
	tricks := all["scripting-sandbox"]
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		var wg sync.WaitGroup
		for c := 0; c < 8; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn := dialRaw(t, addr)
				for round := 0; round < 20; round++ {
					for _, tc := range tricks {
						args := scriptArgs(t, tc.cmd)
						if strings.EqualFold(args[0], "FUNCTION") || strings.EqualFold(args[0], "FCALL") {
							continue // other connections' libraries: run once below
						}
						if got := conn.do(args...); got != tc.resp2 {
							t.Errorf("%s\n redis: %q\n  rekv: %q", tc.cmd, tc.resp2, got)
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		for name, cases := range all {
			if !strings.HasPrefix(name, "scripting") && name != "functions" {
				continue
			}
			got := runScript(t, addr, "2", cases)
			for i, c := range cases {
				w, g := c.resp2, got[i]
				if strings.HasPrefix(c.cmd, "~ ") {
					w, g = sortedReply(t, w), sortedReply(t, g)
				}
				if w != g {
					t.Errorf("after the tricks, %s: %s\n redis: %q\n  rekv: %q", name, c.cmd, w, g)
				}
			}
		}
		c := dialRaw(t, addr)
		for i := 0; i < 50; i++ {
			if got := c.do("EVAL", "return redis.call('ping')", "0"); got != "+PONG\r\n" {
				t.Fatalf("redis.call after the tricks: %q", got)
			}
		}
		c.do("FUNCTION", "LOAD", "REPLACE", "#!lua name=after\nredis.register_function('after', function() return redis.call('ping') end)")
		for i := 0; i < 50; i++ {
			if got := c.do("FCALL", "after", "0"); got != "+PONG\r\n" {
				t.Fatalf("a function loaded after the tricks: %q", got)
			}
		}
	})
}
