package acl

import (
	"errors"
	"strings"
	"testing"
)

// cmd is a command as Permit sees it: a name, whether it writes, its key
// positions and their key-spec flags (nil: none known).
type cmd struct {
	name   string
	writes bool
	keys   []int
	flags  [][]string
}

func (c cmd) FullName() string { return c.name }
func (c cmd) Writes() bool     { return c.writes }
func (c cmd) KeyIndexes(args [][]byte, dst []int) []int {
	return append(dst, c.keys...)
}
func (c cmd) KeyFlags([][]byte, []int) [][]string { return c.flags }

var (
	get       = cmd{name: "get", keys: []int{1}, flags: [][]string{{"RO", "access"}}}
	set       = cmd{name: "set", writes: true, keys: []int{1}, flags: [][]string{{"OW", "update"}}}
	copyCmd   = cmd{name: "copy", writes: true, keys: []int{1, 2}, flags: [][]string{{"RO", "access"}, {"OW", "update"}}}
	flushall  = cmd{name: "flushall", writes: true}
	publish   = cmd{name: "publish"}
	subscribe = cmd{name: "subscribe"}
	psub      = cmd{name: "psubscribe"}
	configGet = cmd{name: "config|get"}
	configSet = cmd{name: "config|set"}
)

// testStore has a small catalog: get and set are @read/@write of @string,
// flushall @dangerous, the config container and its subcommands @admin.
func testStore() *Store {
	return New(NewCatalog(map[string][]string{
		"get": {"read", "string", "fast"}, "set": {"write", "string"}, "copy": {"write", "keyspace"},
		"flushall": {"write", "dangerous", "keyspace"}, "publish": {"pubsub", "fast"},
		"subscribe": {"pubsub"}, "psubscribe": {"pubsub"},
		"config": {"slow"}, "config|get": {"admin", "slow", "dangerous"}, "config|set": {"admin", "slow", "dangerous"},
	}))
}

func line(args ...string) [][]byte {
	out := make([][]byte, len(args))
	for i, a := range args {
		out[i] = []byte(a)
	}
	return out
}

// TestPermit is a table of users' rules and the command lines they may
// or may not run, with the reason of each refusal.
func TestPermit(t *testing.T) {
	cases := []struct {
		rules []string
		cmd   cmd
		args  [][]byte
		want  string // "" allowed; else "reason object"
	}{
		// Commands by name, category and subcommand.
		{[]string{"on", "+get", "~*"}, get, line("get", "k"), ""},
		{[]string{"on", "+get", "~*"}, set, line("set", "k", "v"), "command set"},
		{[]string{"on", "+@string", "~*"}, set, line("set", "k", "v"), ""},
		{[]string{"on", "+@all", "-@dangerous", "~*"}, flushall, line("flushall"), "command flushall"},
		{[]string{"on", "+@all", "-@dangerous", "~*"}, get, line("get", "k"), ""},
		{[]string{"on", "+config|get", "~*"}, configGet, line("config", "get", "x"), ""},
		{[]string{"on", "+config|get", "~*"}, configSet, line("config", "set", "x", "y"), "command config|set"},
		{[]string{"on", "+config", "~*"}, configSet, line("config", "set", "x", "y"), ""},
		{[]string{"on", "+@all", "-config|set", "~*"}, configSet, line("config", "set", "x", "y"), "command config|set"},
		// Keys: patterns, read-only and write-only patterns.
		{[]string{"on", "+@all", "~app:*"}, get, line("get", "app:1"), ""},
		{[]string{"on", "+@all", "~app:*"}, get, line("get", "other"), "key other"},
		{[]string{"on", "+@all", "%R~app:*"}, get, line("get", "app:1"), ""},
		{[]string{"on", "+@all", "%R~app:*"}, set, line("set", "app:1", "v"), "key app:1"},
		{[]string{"on", "+@all", "%W~app:*"}, set, line("set", "app:1", "v"), ""},
		{[]string{"on", "+@all", "%W~app:*"}, get, line("get", "app:1"), "key app:1"},
		{[]string{"on", "+@all", "%R~src", "%W~dst"}, copyCmd, line("copy", "src", "dst"), ""},
		{[]string{"on", "+@all", "%R~src", "%W~dst"}, copyCmd, line("copy", "dst", "src"), "key dst"},
		{[]string{"on", "+@all", "~*", "resetkeys", "~a"}, get, line("get", "b"), "key b"},
		// Channels: patterns for PUBLISH/SUBSCRIBE, literal for PSUBSCRIBE.
		{[]string{"on", "+@all", "resetchannels", "&news.*"}, publish, line("publish", "news.1", "m"), ""},
		{[]string{"on", "+@all", "resetchannels", "&news.*"}, publish, line("publish", "sport", "m"), "channel sport"},
		{[]string{"on", "+@all", "resetchannels", "&news.*"}, subscribe, line("subscribe", "news.a", "sport"), "channel sport"},
		{[]string{"on", "+@all", "resetchannels", "&news.*"}, psub, line("psubscribe", "news.*"), ""},
		{[]string{"on", "+@all", "resetchannels", "&news.*"}, psub, line("psubscribe", "news.a*"), "channel news.a*"},
		{[]string{"on", "+@all", "allchannels"}, psub, line("psubscribe", "x*"), ""},
		// Selectors: the command runs if one allows it whole; otherwise
		// the most specific denial is reported.
		{[]string{"on", "+get", "~a*", "(+set ~b*)"}, set, line("set", "b1", "v"), ""},
		{[]string{"on", "+get", "~a*", "(+set ~b*)"}, set, line("set", "a1", "v"), "key a1"},
		{[]string{"on", "+get", "~a*", "(+set ~b*)"}, get, line("get", "b1"), "key b1"},
		{[]string{"on", "+get", "~a*", "(+set ~b*)"}, flushall, line("flushall"), "command flushall"},
	}
	for i, tc := range cases {
		s := testStore()
		if err := s.SetUser("u", tc.rules); err != nil {
			t.Fatalf("case %d %q: %v", i, tc.rules, err)
		}
		d := Permit(s.User("u"), tc.cmd, tc.args)
		got := ""
		if d != nil {
			got = d.Reason + " " + d.Object
		}
		if got != tc.want {
			t.Errorf("case %d %q, %q: got %q, want %q", i, tc.rules, tc.args, got, tc.want)
		}
	}
}

// TestDefaultUserIsFree: the default user may run everything and skips
// the checks (Free), until rules restrict it.
func TestDefaultUserIsFree(t *testing.T) {
	s := testStore()
	u := s.User("default")
	if u == nil || !u.Free() || Permit(u, flushall, line("flushall")) != nil {
		t.Fatalf("default user: %+v", u)
	}
	if err := s.SetUser("default", []string{"-flushall"}); err != nil {
		t.Fatal(err)
	}
	if u := s.User("default"); u.Free() || Permit(u, flushall, line("flushall")) == nil {
		t.Fatal("default user still free after -flushall")
	}
	if _, err := s.DelUser([]string{"default"}); err == nil {
		t.Fatal("the default user was deleted")
	}
}

// TestPasswords: >add, <remove, #hash, nopass and resetpass, and on/off.
func TestPasswords(t *testing.T) {
	s := testStore()
	if err := s.SetUser("alice", []string{"on", ">secret", ">other"}); err != nil {
		t.Fatal(err)
	}
	for pass, want := range map[string]bool{"secret": true, "other": true, "nope": false} {
		if got := s.Check("alice", []byte(pass)); got != want {
			t.Errorf("Check %q = %v", pass, got)
		}
	}
	if err := s.SetUser("alice", []string{"<other"}); err != nil {
		t.Fatal(err)
	}
	if s.Check("alice", []byte("other")) {
		t.Error("removed password still accepted")
	}
	if got := s.User("alice").Passwords(); len(got) != 1 || got[0] != Hash([]byte("secret")) {
		t.Errorf("passwords kept as SHA-256 digests only: %q", got)
	}
	if err := s.SetUser("alice", []string{"resetpass", "#" + Hash([]byte("h"))}); err != nil {
		t.Fatal(err)
	}
	if !s.Check("alice", []byte("h")) || s.Check("alice", []byte("secret")) {
		t.Error("#hash after resetpass")
	}
	if err := s.SetUser("alice", []string{"nopass"}); err != nil || !s.Check("alice", []byte("anything")) {
		t.Errorf("nopass: %v", err)
	}
	if err := s.SetUser("alice", []string{"off"}); err != nil || s.Check("alice", []byte("anything")) {
		t.Errorf("an off user authenticated: %v", err)
	}
	if err := s.SetUser("alice", []string{"#nothex"}); err == nil {
		t.Error("a malformed hash was accepted")
	}
}

// TestRuleErrors: a bad rule fails the whole SETUSER, naming the rule,
// and leaves the user as it was.
func TestRuleErrors(t *testing.T) {
	s := testStore()
	if err := s.SetUser("bob", []string{"on", "+get", "~a"}); err != nil {
		t.Fatal(err)
	}
	before := s.Describe(s.User("bob"))
	for _, rules := range [][]string{{"+get", "bogus"}, {"+@nocategory"}, {"~*", "%X~a"}, {"(+get"}} {
		err := s.SetUser("bob", rules)
		var re *RuleError
		if err == nil || len(rules) > 0 && rules[0] != "(+get" && !errors.As(err, &re) {
			t.Errorf("%q: %v, want a RuleError", rules, err)
		}
		if got := s.Describe(s.User("bob")); got != before {
			t.Errorf("%q changed the user: %q, was %q", rules, got, before)
		}
	}
}

// TestDescribeRoundTrips: a user's description (ACL LIST's line) loads
// back as the same user.
func TestDescribeRoundTrips(t *testing.T) {
	s := testStore()
	rules := []string{"on", ">pw", "+@read", "-get", "+config|get", "%R~r:*", "~rw:*", "resetchannels", "&c*", "(+set ~s*)"}
	if err := s.SetUser("carol", rules); err != nil {
		t.Fatal(err)
	}
	desc := s.Describe(s.User("carol"))
	fields := strings.Fields(desc)
	if len(fields) < 2 || fields[0] != "user" || fields[1] != "carol" {
		t.Fatalf("description %q", desc)
	}
	s2 := testStore()
	if err := s2.SetUser("carol", fields[2:]); err != nil {
		t.Fatalf("%q does not load back: %v", desc, err)
	}
	if got := s2.Describe(s2.User("carol")); got != desc {
		t.Fatalf("round trip:\n got %q\nwant %q", got, desc)
	}
	for _, c := range []struct {
		cmd  cmd
		args [][]byte
	}{{get, line("get", "r:1")}, {set, line("set", "s1", "v")}, {configGet, line("config", "get", "x")}, {publish, line("publish", "cx", "m")}} {
		a, b := Permit(s.User("carol"), c.cmd, c.args), Permit(s2.User("carol"), c.cmd, c.args)
		if (a == nil) != (b == nil) {
			t.Errorf("%q: %v before the round trip, %v after", c.args, a, b)
		}
	}
}

// TestDescribeLikeRedis: with Redis's categories, a user is described as
// redis-server 7.0.15 describes the same rules (ACL LIST).
func TestDescribeLikeRedis(t *testing.T) {
	cat, err := RedisCatalog()
	if err != nil {
		t.Fatal(err)
	}
	s := New(cat)
	rules := []string{"on", ">pw", "+@read", "-get", "+config|get", "%R~r:*", "~rw:*", "resetchannels", "&c*", "(+set ~s*)"}
	if err := s.SetUser("carol", rules); err != nil {
		t.Fatal(err)
	}
	const redis = "user carol on #30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4 %R~r:* ~rw:* resetchannels &c* -@all +@read +config|get -get (~s* resetchannels -@all +set)"
	if got := s.Describe(s.User("carol")); got != redis {
		t.Fatalf("ACL LIST line:\n  rekv %q\n redis %q", got, redis)
	}
}
