package command_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/all"
)

// flagFacts pairs rekv's Spec flags with Redis's command-table flags
// they must agree with (NoScript, Fast, DenyOOM, Loading, Stale and
// NoMulti are taken from the table by NewRegistry).
var flagFacts = []struct {
	flag  command.Flags
	redis string
}{
	{command.ReadOnly, "readonly"},
	{command.NoAuth, "no_auth"},
	{command.AllowBusy, "allow_busy"},
	{command.Blocking, "blocking"},
	{command.NoScript, "noscript"},
	{command.Fast, "fast"},
}

// specDisagreements are where a Spec differs from Redis's table on
// purpose, and why. The test fails on any other difference, and on an
// entry here that no longer differs.
var specDisagreements = map[string]string{
	"zrank":                   "Redis 7.2's WITHSCORE: arity -3 (the table is 7.0's, arity 3)",
	"zrevrank":                "Redis 7.2's WITHSCORE: arity -3 (the table is 7.0's, arity 3)",
	"migrate":                 "an empty key argument (the KEYS form) is no key here; Redis's key spec counts it",
	"ssubscribe":              "shard channels are not keys here: the bus carries shard messages to every node",
	"sunsubscribe":            "shard channels are not keys here: the bus carries shard messages to every node",
	"spublish":                "shard channels are not keys here: the bus carries shard messages to every node",
	"info":                    "ReadOnly: it reads the store (the keyspace section) on every shard",
	"object|help":             "ReadOnly: OBJECT's subcommands run on the store, help with them",
	"cluster|countkeysinslot": "ReadOnly: it counts the slot's keys in the store",
	"cluster|getkeysinslot":   "ReadOnly: it lists the slot's keys from the store",
	"function|list":           "ReadOnly: the libraries live in the store",
	"function|dump":           "ReadOnly: the libraries live in the store",
	"function|stats":          "ReadOnly: it reads the libraries in the store",
	"lolwut":                  "a connection command here, answered on the event loop (Redis: readonly)",
	"pfcount":                 "Write: PFCOUNT may store its cached estimate (Redis: readonly, not write)",
	"watch":                   "no AllowBusy: WATCH runs on its keys' shards, which a busy script holds, and waits there",
	"exec":                    "Write: it runs its queued commands as one store transaction; admission judges it by them",
	"eval":                    "Write: scripts run as writes; admission judges them by their flags or calls",
	"evalsha":                 "Write: scripts run as writes; admission judges them by their flags or calls",
	"fcall":                   "Write: functions run as writes; admission judges them by their flags",
}

// disagreements returns one line per difference between a Spec and
// Redis's entry for it: arity, key positions (for command lines made
// from the documented arguments) and flags.
func disagreements(reg *command.Registry) []string {
	var out []string
	var check func(s *command.Spec)
	check = func(s *command.Spec) {
		for _, sub := range s.Subcommands {
			check(sub)
		}
		if s.Info == nil || s.Parse == nil {
			return
		}
		name := s.FullName()
		if s.Info.Arity != 0 && s.Arity != s.Info.Arity {
			out = append(out, fmt.Sprintf("%s: arity %d, Redis's %d", name, s.Arity, s.Info.Arity))
		}
		for _, f := range flagFacts {
			if (s.Flags&f.flag != 0) != s.Info.Has(f.redis) {
				out = append(out, fmt.Sprintf("%s: %s is %v in the Spec, %v in Redis's table", name, f.redis, s.Flags&f.flag != 0, s.Info.Has(f.redis)))
			}
		}
		// Write is the engine's; Redis's write (Spec.RedisWrite) implies it.
		if s.Writes() != s.RedisWrite() {
			out = append(out, fmt.Sprintf("%s: Write is %v in the Spec, write %v in Redis's table", name, s.Writes(), s.RedisWrite()))
		}
		head := strings.Split(name, "|")
		for _, full := range []bool{false, true} {
			for _, last := range []bool{false, true} {
				line := append(slices.Clone(head), s.Doc.Sample("{k}", full, last)...)
				if len(line) < max(s.Arity, -s.Arity) {
					continue // the documentation shape misses a required argument
				}
				args := make([][]byte, len(line))
				for i, a := range line {
					args[i] = []byte(a)
				}
				want, complete := s.Info.KeyPositions(args)
				got := s.KeyIndexes(args, nil)
				slices.Sort(got)
				got = slices.Compact(got)
				if complete && !slices.Equal(got, want) {
					out = append(out, fmt.Sprintf("%s: keys at %v in %q, Redis's key specs find %v", name, got, line, want))
				}
			}
		}
	}
	for _, s := range reg.All() {
		check(s)
	}
	return out
}

// TestSpecsAgreeWithRedis checks every Spec against Redis's command table
// (facts/info.json, generated from redis-server).
func TestSpecsAgreeWithRedis(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range disagreements(all.Registry(nil)) {
		name, _, _ := strings.Cut(d, ":")
		if _, ok := specDisagreements[name]; ok {
			seen[name] = true
			continue
		}
		t.Error(d)
	}
	for name := range specDisagreements {
		if !seen[name] {
			t.Errorf("%s: listed as differing from Redis's table, but agrees: drop it from specDisagreements", name)
		}
	}
}

// TestDisagreementCaught shows the check catches a Spec whose arity, keys
// or flags differ from Redis's.
func TestDisagreementCaught(t *testing.T) {
	bad := []*command.Spec{
		{Name: "get", Arity: 3, Keys: command.KeySpec{First: 1, Last: 1, Step: 1}, Parse: func([][]byte) (command.Runner, error) { return nil, nil }},
		{Name: "del", Arity: -2, Flags: command.ReadOnly, Keys: command.KeySpec{First: 1, Last: 1, Step: 1}, Parse: func([][]byte) (command.Runner, error) { return nil, nil }},
	}
	got := disagreements(command.NewRegistry(bad))
	want := []string{"get: arity 3, Redis's 2", "get: readonly", "del: Write", "del: keys at [1]"}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("not caught: %q (got %q)", w, got)
		}
	}
}
