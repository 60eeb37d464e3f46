package lint

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/drivers"
)

const module = "github.com/rekv/rekv"

// rule forbids the packages matching pkg (a path relative to the module;
// "x/..." is x and everything under it, "x/*" the packages directly under
// x) to import those matching any of deny but not allow, except the
// packages in except.
type rule struct {
	pkg    string
	except []string
	deny   []string
	allow  []string // imports deny matches that are allowed
	why    string
}

func rules() []rule {
	everything := []string{"..."} // every rekv package
	return []rule{
		{pkg: "codec", deny: everything, why: "the codec is pure functions over bytes"},
		{pkg: "actors/rerr", deny: everything, why: "error sentinels sit below every layer"},
		{pkg: "resp", deny: everything, why: "the protocol knows nothing of commands"},
		{pkg: "glob", deny: everything, why: "glob matching is a leaf every layer uses"},
		{pkg: "guard", deny: everything, why: "panic containment is a leaf every layer uses"},
		{pkg: "actors/command/facts", deny: everything, why: "Redis's command table is data, below every command"},
		{pkg: "settings", deny: everything, why: "the settings table is data, below conf, net and node"},
		{pkg: "namespaces", deny: []string{"actors/...", "net/...", "node", "gc", "conf"},
			why: "namespace definitions sit on the store, below the engine and the network"},
		{pkg: "net/info", deny: []string{"net", "node", "actors/...", "gc"},
			why: "INFO's sections are formatted from figures the caller gathers"},
		{pkg: "net/tracking", deny: everything, why: "the tracking table is a data structure; net sends the messages"},
		{pkg: "acl", deny: []string{"actors", "actors/command/...", "actors/store", "actors/types/...", "drivers/...", "codec", "net/...", "node", "gc", "conf"},
			why: "ACL knows users and permissions; it sees a command only through acl.Command"},
		{pkg: "drivers/...", deny: []string{"codec", "actors/...", "net/...", "node", "gc", "conf"},
			why: "a driver is an ordered KV store; the layout above it is not its business"},
		{pkg: "actors/store", deny: []string{"actors", "actors/command/...", "actors/types/...", "net/...", "node", "gc", "conf"},
			why: "the store is the key model, below types and commands"},
		{pkg: "actors/types/...", deny: []string{"drivers/...", "actors", "actors/command/...", "net/...", "node", "gc", "conf"},
			why: "type operations work on a store transaction and know no command or reply"},
		{pkg: "actors/command/...", except: []string{"actors/command/commandtest"},
			deny: []string{"drivers/...", "actors", "net", "node", "gc", "conf"},
			why:  "commands reach storage only through the store and type layers"},
		{pkg: "actors/command/*", except: []string{"actors/command/all", "actors/command/commandtest"},
			deny: []string{"actors/command/*"}, allow: []string{"actors/command/facts"},
			why: "a command family does not reach into another: shared shapes go in package command"},
		{pkg: "state", deny: []string{"net/...", "node", "gc", "conf", "drivers/...", "codec", "actors", "actors/store", "actors/types/...", "actors/command/*"},
			allow: []string{"actors/command/facts"}, why: "server state is tables, with no connection, engine or storage"},
		{pkg: "gc", deny: []string{"net/...", "node", "conf"}, why: "the GC talks to shards through Engine.Exec, not RESP"},
		{pkg: "cluster", deny: everything, why: "slots and the slot map are pure data every layer may read"},
		{pkg: "bus", deny: everything, allow: []string{"guard"}, why: "the bus carries bytes between nodes; the node wires it to the engine and clients"},
		{pkg: "cluster/membership", deny: []string{"actors/...", "net/...", "node", "gc", "conf"},
			why: "membership is records in the store, below the engine and the network front"},
		{pkg: "repl", deny: []string{"net/...", "node", "gc", "conf", "drivers/*", "actors/command/*"}, allow: []string{"actors/command/keys"},
			why: "a replica feeds the master's commands to the engine as a client does, an export reads the store as DUMP does; the node wires them to the network front"},
		{pkg: "net/...", deny: []string{"drivers/...", "codec", "node", "gc", "conf", "actors/command/*"}, allow: []string{"actors/command/facts"},
			why: "the network front hands commands to the engine and never touches storage or a command family"},
	}
}

// match reports whether rel (a path relative to the module, "" for the
// root) matches pattern.
func match(pattern, rel string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	if base, ok := strings.CutSuffix(pattern, "/*"); ok {
		child, ok := strings.CutPrefix(rel, base+"/")
		return ok && child != "" && !strings.Contains(child, "/")
	}
	return rel == pattern
}

// violations returns one line per forbidden import in imports (package ->
// its imports, full paths).
func violations(imports map[string][]string, rs []rule) []string {
	var out []string
	for pkg, deps := range imports {
		rel, ok := relative(pkg)
		if !ok {
			continue
		}
		for _, r := range rs {
			if !match(r.pkg, rel) || slices.Contains(r.except, rel) {
				continue
			}
			for _, dep := range deps {
				drel, ok := relative(dep)
				if !ok || drel == rel || slices.ContainsFunc(r.allow, func(a string) bool { return match(a, drel) }) {
					continue
				}
				for _, d := range r.deny {
					if match(d, drel) {
						out = append(out, pkg+" imports "+dep+": "+r.why)
						break
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func relative(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

// TestForbiddenImports checks the layering rules on the real tree.
func TestForbiddenImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	if len(imports) < 20 {
		t.Fatalf("go list found only %d packages", len(imports))
	}
	for _, v := range violations(imports, rules()) {
		t.Error(v)
	}
}

// TestRulesCatchViolations shows each kind of forbidden import is caught,
// so TestForbiddenImports cannot pass by matching nothing.
func TestRulesCatchViolations(t *testing.T) {
	m := func(s string) string { return module + "/" + s }
	bad := map[string][]string{
		m("codec"):                      {m("actors/rerr")},
		m("drivers/badger"):             {m("drivers"), m("codec")},
		m("actors/command/hash"):        {m("actors/command"), m("drivers")},
		m("actors/types/zset"):          {m("actors/store"), m("actors/command")},
		m("gc"):                         {m("actors/command"), m("net/resp")},
		m("net"):                        {m("actors"), m("drivers/tikv"), m("actors/command/server")},
		m("acl"):                        {m("glob"), m("actors/command")},
		m("resp"):                       {m("glob")},
		m("actors/command/zset"):        {m("actors/command"), m("actors/command/list"), m("actors/command/facts")},
		m("actors/command/all"):         {m("actors/command/zset"), m("actors/command/list")}, // allowed: the table of tables
		m("actors/command/server"):      {"strings", m("actors/store")},                       // allowed
		m("actors/command/commandtest"): {m("drivers/badger"), m("actors")},                   // allowed: test support
		m("actors/store"):               {m("codec"), m("drivers"), m("actors/rerr")},         // allowed
	}
	got := violations(bad, rules())
	wantFrom := []string{"codec", "drivers/badger", "actors/command/hash", "actors/types/zset", "gc", "net", "net",
		"acl", "resp", "actors/command/zset"}
	if len(got) != len(wantFrom) {
		t.Fatalf("got %d violations, want %d:\n%s", len(got), len(wantFrom), strings.Join(got, "\n"))
	}
	for _, w := range wantFrom {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, m(w)+" imports ")
		}
		if !found {
			t.Errorf("no violation reported for %s in:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// TestSystemPrefixAgrees checks that the first byte drivers keep for their
// own records is the one the codec reserves for system records.
func TestSystemPrefixAgrees(t *testing.T) {
	if drivers.SystemPrefix != codec.PrefixSystem {
		t.Fatalf("drivers.SystemPrefix %q != codec.PrefixSystem %q", drivers.SystemPrefix, codec.PrefixSystem)
	}
}
