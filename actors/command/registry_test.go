package command_test

import (
	"strings"
	"testing"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/all"
)

// TestEveryCommandHasFacts names every registered command or subcommand
// that lacks what COMMAND INFO, COMMAND DOCS and ACL need: Redis's
// command-table entry (facts/info.json), its documentation (args.json,
// summaries.txt) and its ACL categories (acl/categories.json).
func TestEveryCommandHasFacts(t *testing.T) {
	cat, err := acl.RedisCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range missingFacts(all.Registry(nil), cat) {
		t.Error(name)
	}
}

// missingFacts returns one line per missing fact of a registered spec.
func missingFacts(reg *command.Registry, cat *acl.Catalog) []string {
	var out []string
	var check func(s *command.Spec)
	check = func(s *command.Spec) {
		name := s.FullName()
		// Redis 7.0's table, which the facts are generated from, has no
		// entry for the few Redis 7.2 commands rekv serves: COMMAND INFO
		// describes those from the Spec.
		if s.Info == nil && (s.Doc == nil || s.Doc.Since < "7.2.0") {
			out = append(out, name+": no command-table entry (facts/info.json)")
		}
		switch d := s.Doc; {
		case d == nil:
			out = append(out, name+": no documentation (facts/args.json, facts/summaries.txt)")
		case d.Summary == "" || d.Complexity == "":
			out = append(out, name+": no summary or complexity (facts/summaries.txt)")
		case d.Group == "" || d.Since == "":
			out = append(out, name+": no group or version (facts/args.json)")
		}
		if len(cat.CommandCategories(name)) == 0 {
			out = append(out, name+": no ACL categories (acl/categories.json)")
		}
		for _, sub := range s.Subcommands {
			check(sub)
		}
	}
	for _, s := range reg.All() {
		check(s)
	}
	return out
}

// TestMissingFactsNamesTheCommand shows the check fails on a command
// rekv might add without its facts.
func TestMissingFactsNamesTheCommand(t *testing.T) {
	cat, err := acl.RedisCatalog()
	if err != nil {
		t.Fatal(err)
	}
	noop := func([][]byte) (command.Runner, error) { return nil, nil }
	reg := command.NewRegistry([]*command.Spec{
		{Name: "get", Arity: 2, Flags: command.ReadFast, Keys: command.KeySpec{First: 1, Last: 1, Step: 1}, Parse: noop},
		{Name: "frobnicate", Arity: 2, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: 1, Step: 1}, Parse: noop},
	})
	got := missingFacts(reg, cat)
	want := []string{
		"frobnicate: no command-table entry (facts/info.json)",
		"frobnicate: no documentation (facts/args.json, facts/summaries.txt)",
		"frobnicate: no ACL categories (acl/categories.json)",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
	if reg.Lookup([]byte("get")).Info == nil || !reg.Lookup([]byte("get")).Info.Has("readonly") {
		t.Error("GET got no facts at registration")
	}
}

// TestVariants: a variant registered by another table runs for the
// argument lists it matches, with the command's name; other lists run
// the command; a variant of a command the registry lacks is dropped, and
// one misnamed is a programming error.
func TestVariants(t *testing.T) {
	cmd := &command.Spec{Name: "dbg", Arity: -2, Flags: command.Conn, Parse: func([][]byte) (command.Runner, error) { return nil, nil }}
	variant := &command.Spec{Name: "dbg", VariantOf: "dbg", Arity: 3, Flags: command.ReadOnly, Keys: command.KeySpec{First: 2, Last: 2, Step: 1},
		Matches: func(args [][]byte) bool { return len(args) == 3 && command.Is(args[1], "obj") },
		Parse:   func([][]byte) (command.Runner, error) { return nil, nil }}
	r := command.NewRegistry([]*command.Spec{variant}, []*command.Spec{cmd})
	for _, tc := range []struct {
		line string
		want *command.Spec
	}{
		{"dbg obj k", variant}, {"DBG OBJ k", variant}, {"dbg obj", cmd}, {"dbg obj k x", cmd}, {"dbg sleep 0", cmd},
	} {
		spec, err := r.Resolve(bytesArgs(tc.line))
		if err != nil || spec != tc.want {
			t.Errorf("%s: %v, %v; want the %s", tc.line, spec, err, map[bool]string{true: "variant", false: "command"}[tc.want == variant])
		}
	}
	if spec, _ := r.Resolve(bytesArgs("dbg obj k")); spec.FullName() != "dbg" || spec.Info != cmd.Info {
		t.Errorf("the variant's name %q and facts differ from the command's", spec.FullName())
	}
	if len(r.All()) != 1 {
		t.Errorf("the variant is listed as a command: %d commands", len(r.All()))
	}
	if r := command.NewRegistry([]*command.Spec{{Name: "other", VariantOf: "other", Matches: variant.Matches}}); r.Lookup([]byte("other")) != nil {
		t.Error("a variant of a missing command became a command")
	}
	defer func() {
		if recover() == nil {
			t.Error("a misnamed variant was accepted")
		}
	}()
	command.NewRegistry([]*command.Spec{{Name: "x", VariantOf: "dbg", Matches: variant.Matches}}, []*command.Spec{{Name: "dbg", Arity: -2}})
}

func bytesArgs(line string) [][]byte {
	var out [][]byte
	for _, f := range strings.Fields(line) {
		out = append(out, []byte(f))
	}
	return out
}

// TestSpecIDs: every spec of the registry (commands, subcommands and
// variants) has its own ID, from 1 to Len.
func TestSpecIDs(t *testing.T) {
	r := all.Registry(nil)
	seen := map[int]string{}
	var check func(s *command.Spec)
	check = func(s *command.Spec) {
		if s.ID < 1 || s.ID > r.Len() {
			t.Errorf("%s: ID %d outside 1..%d", s.FullName(), s.ID, r.Len())
		}
		if other, dup := seen[s.ID]; dup {
			t.Errorf("%s and %s share ID %d", s.FullName(), other, s.ID)
		}
		seen[s.ID] = s.FullName()
		for _, sub := range append(append([]*command.Spec(nil), s.Subcommands...), s.Variants...) {
			check(sub)
		}
	}
	for _, s := range r.All() {
		check(s)
	}
	if len(seen) != r.Len() {
		t.Errorf("%d specs numbered, Len %d", len(seen), r.Len())
	}
}
