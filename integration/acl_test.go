package integration

import (
	"sort"
	"strings"
	"testing"
)

// aclFields returns GETUSER's reply without the commands field, whose
// single-command rules Redis lists in its hash table's order (rekv: name
// order); permissions are compared through DRYRUN instead.
func aclFields(t *testing.T, c *raw, user string) string {
	r := c.do("ACL", "GETUSER", user)
	i := strings.Index(r, "$8\r\ncommands\r\n")
	j := strings.Index(r, "$4\r\nkeys\r\n")
	if i < 0 || j < 0 {
		return r
	}
	return r[:i] + r[j:]
}

// TestACLLikeRedis applies the same ACL SETUSER rules on redis-server and
// rekv and compares, user by user: GETUSER's flags, passwords, keys and
// channels; what ACL DRYRUN says of a set of command lines (the
// permissions themselves); the rule errors; then AUTH, NOPERM for
// commands, keys and channels, WHOAMI, requirepass as the default user's
// password, and ACL LOG's entries.
func TestACLLikeRedis(t *testing.T) {
	users := map[string][]string{
		"alice": {"on", ">p1", "~cache:*", "%R~ro:*", "%W~wo:*", "&chan*", "+get", "+@hash", "-hdel", "+config|get", "+set"},
		"bob":   {"on", "nopass", "+@all", "-@dangerous", "allkeys", "allchannels"},
		"carol": {"on", ">a", ">b", "<a", "#" + strings.Repeat("ab", 32), "resetkeys", "~k*", "+@read", "-@string", "+get", "&news"},
		"dave":  {"on", ">x", "allcommands", "nocommands", "+@write", "+@read", "-set", "~*", "resetchannels"},
		"erin":  {"reset", "on", ">e", "+client", "-client|kill", "+acl|whoami", "+psubscribe", "&p.*"},
		"frank": {"off", ">f", "+@all", "~*"},
	}
	lines := [][]string{
		{"get", "cache:1"}, {"get", "ro:1"}, {"get", "wo:1"}, {"get", "other"}, {"set", "cache:1", "v"}, {"set", "ro:1", "v"},
		{"set", "wo:1", "v"}, {"hset", "cache:h", "f", "v"}, {"hdel", "cache:h", "f"}, {"config", "get", "x"},
		{"config", "set", "a", "b"}, {"flushall"}, {"keys", "*"}, {"publish", "chan1", "m"}, {"publish", "other", "m"},
		{"client", "list"}, {"client", "kill", "id", "1"}, {"acl", "whoami"}, {"psubscribe", "p.*"}, {"psubscribe", "p.x"},
		{"subscribe", "news"}, {"mget", "k1", "x"}, {"strlen", "k1"}, {"lpush", "k1", "x"}, {"zrange", "k", "0", "1"},
	}
	bad := [][]string{{"foo"}, {"+nosuch"}, {"+@nosuch"}, {"#abc"}, {"<nothere"}, {"~*", "~a"}, {"allchannels", "&x"},
		{"%X~a"}, {"!" + strings.Repeat("0", 64)}}
	run := func(addr string) map[string]string {
		c := dialRaw(t, addr)
		out := map[string]string{}
		names := make([]string, 0, len(users))
		for n := range users {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			out["setuser "+n] = c.do(append([]string{"ACL", "SETUSER", n}, users[n]...)...)
			out["getuser "+n] = aclFields(t, c, n)
			for _, l := range lines {
				out["dryrun "+n+" "+strings.Join(l, " ")] = c.do(append([]string{"ACL", "DRYRUN", n}, l...)...)
			}
		}
		for _, b := range bad {
			out["bad "+strings.Join(b, " ")] = c.do(append([]string{"ACL", "SETUSER", "zed"}, b...)...)
		}
		out["dryrun unknown user"] = c.do("ACL", "DRYRUN", "nobody", "get", "x")
		out["dryrun unknown command"] = c.do("ACL", "DRYRUN", "alice", "nosuch")
		out["users"] = c.do("ACL", "USERS")
		out["deluser default"] = c.do("ACL", "DELUSER", "default")
		out["cat nope"] = c.do("ACL", "CAT", "nope")
		out["genpass 0"] = c.do("ACL", "GENPASS", "0")
		out["genpass len"] = strings.SplitN(c.do("ACL", "GENPASS", "10"), "\r\n", 2)[0]
		out["log reset"] = c.do("ACL", "LOG", "RESET")
		// Connections as the users.
		a := dialRaw(t, addr)
		out["auth wrong"] = a.do("AUTH", "alice", "nope")
		out["auth off"] = a.do("AUTH", "frank", "f")
		out["auth"] = a.do("AUTH", "alice", "p1")
		out["whoami denied"] = a.do("ACL", "WHOAMI")
		out["get denied"] = a.do("GET", "other")
		out["get allowed"] = a.do("GET", "cache:1")
		out["set read-only key"] = a.do("SET", "ro:1", "v")
		out["publish denied"] = a.do("PUBLISH", "other", "m")
		out["config get"] = a.do("CONFIG", "GET", "maxmemory-policy")
		e := dialRaw(t, addr)
		e.do("AUTH", "erin", "e")
		out["erin whoami"] = e.do("ACL", "WHOAMI")
		out["erin psubscribe"] = e.do("PSUBSCRIBE", "p.x")
		entries := c.do("ACL", "LOG")
		var kept []string // age and client details differ; the rest must not
		for _, f := range []string{"count", "reason", "context", "object", "username"} {
			kept = append(kept, f+":"+fieldValues(entries, f))
		}
		out["log"] = strings.Join(kept, "|")
		// requirepass is the default user's password.
		out["requirepass"] = c.do("CONFIG", "SET", "requirepass", "sekret")
		d := dialRaw(t, addr)
		out["noauth"] = d.do("GET", "x")
		out["auth default"] = d.do("AUTH", "sekret")
		out["default getuser"] = aclFields(t, c, "default")
		c.do("CONFIG", "SET", "requirepass", "")
		out["deluser"] = c.do("ACL", "DELUSER", "alice", "nobody")
		_, err := readReply(a.r)
		out["deleted user's connection"] = map[bool]string{true: "closed", false: "open"}[err != nil]
		return out
	}
	want := run(redisServer(t))
	forEachDriver(t, func(t *testing.T, addr string) {
		got := run(addr)
		keys := make([]string, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if got[k] != want[k] {
				t.Errorf("%s:\nrekv  %q\nredis %q", k, got[k], want[k])
			}
		}
	})
}

// fieldValues returns the values of field in every map of an ACL LOG
// reply, joined.
func fieldValues(reply, field string) string {
	var vals []string
	parts := strings.Split(reply, "\r\n")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == field {
			vals = append(vals, parts[i+2])
			if strings.HasPrefix(parts[i+1], ":") {
				vals[len(vals)-1] = parts[i+1]
			}
		}
	}
	return strings.Join(vals, ",")
}
