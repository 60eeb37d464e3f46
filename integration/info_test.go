package integration

import (
	"regexp"
	"strings"
	"testing"
)

// infoFields returns INFO's field names by section.
func infoFields(t *testing.T, c *raw, arg string) map[string][]string {
	t.Helper()
	r := c.do("INFO", arg)
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(r, "\r\n") {
		line = strings.TrimPrefix(line, "txt:")
		switch {
		case strings.HasPrefix(line, "# "):
			cur = strings.ToLower(strings.TrimPrefix(line, "# "))
			out[cur] = nil
		case cur != "" && strings.Contains(line, ":"):
			out[cur] = append(out[cur], line[:strings.IndexByte(line, ':')])
		}
	}
	return out
}

// TestInfoFieldsLikeRedis compares INFO's sections and field names with
// redis-server's, section by section, for INFO, INFO all and INFO with
// named sections: rekv has every field of Redis 7.0 but the few it does
// not keep (listed), and sections come in Redis's order.
func TestInfoFieldsLikeRedis(t *testing.T) {
	notKept := map[string]bool{
		"used_memory_lua": true, "used_memory_vm_eval": true, "used_memory_lua_human": true, "used_memory_scripts_eval": true,
		"number_of_functions": true, "number_of_libraries": true, "used_memory_vm_functions": true,
		"used_memory_vm_total": true, "used_memory_vm_total_human": true, "used_memory_functions": true, "used_memory_scripts": true,
		"used_memory_scripts_human": true, "expired_stale_perc": true, "expired_time_cap_reached_count": true,
		"expire_cycle_cpu_milliseconds": true, "reply_buffer_shrinks": true,
		"reply_buffer_expands": true,
	}
	red := dialRaw(t, redisServer(t))
	n := startNode(t, "badger", nil)
	rk := dialRaw(t, n.Addr())
	for _, c := range []*raw{red, rk} {
		c.do("SET", "k", "v")
		c.do("LPUSH", "k", "x") // an error, for errorstats
		c.do("GET", "k")
		c.do("MGET", "k", "nope", "k")
		c.do("EXISTS", "nope")
		c.do("SET", "k2", "v") // a write counts nothing
	}
	// keyspace_hits / keyspace_misses count alike.
	for _, f := range []string{"keyspace_hits", "keyspace_misses"} {
		re := regexp.MustCompile(f + `:(\d+)\r\n`)
		want, got := re.FindStringSubmatch(red.do("INFO", "stats")), re.FindStringSubmatch(rk.do("INFO", "stats"))
		if want == nil || got == nil || want[1] != got[1] {
			t.Errorf("%s: rekv %v, redis %v", f, got, want)
		}
	}
	for _, arg := range []string{"default", "all", "server", "memory", "stats", "errorstats", "commandstats"} {
		want, got := infoFields(t, red, arg), infoFields(t, rk, arg)
		for sec, fields := range want {
			if _, ok := got[sec]; !ok {
				t.Errorf("INFO %s: no %s section", arg, sec)
				continue
			}
			have := map[string]bool{}
			for _, f := range got[sec] {
				have[f] = true
			}
			for _, f := range fields {
				if !have[f] && !notKept[f] && sec != "commandstats" && sec != "latencystats" {
					t.Errorf("INFO %s: section %s lacks %s", arg, sec, f)
				}
			}
		}
		for sec := range got {
			if _, ok := want[sec]; !ok && sec != "gc" && sec != "namespaces" { // rekv's own
				t.Errorf("INFO %s: extra section %s", arg, sec)
			}
		}
	}
	// Counters that must have moved.
	info := rk.do("INFO", "everything")
	if !regexp.MustCompile(`\r\nlatency_percentiles_usec_set:p50=\d+\.\d{3},p99=\d+\.\d{3},p99\.9=\d+\.\d{3}\r\n`).MatchString(info) {
		t.Errorf("INFO everything: no latency percentiles for SET:\n%s", info)
	}
	for _, f := range []string{"cmdstat_set:calls=2,", "cmdstat_lpush:calls=1,", "failed_calls=1", "errorstat_WRONGTYPE:count=1", "total_error_replies:1"} {
		if !strings.Contains(info, f) {
			t.Errorf("INFO everything lacks %q", f)
		}
	}
}
