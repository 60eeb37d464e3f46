package state

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rekv/rekv/actors/command"
)

func args(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, x := range s {
		out[i] = []byte(x)
	}
	return out
}

func TestSlowLog(t *testing.T) {
	var l SlowLog
	l.SetMax(3)
	l.Record(-1, args("GET", "k"), time.Second, "a", "n") // off
	l.Record(1000, args("GET", "k"), 999*time.Microsecond, "a", "n")
	if l.SlowlogLen() != 0 {
		t.Fatalf("logged below the threshold: %d", l.SlowlogLen())
	}
	l.Record(1000, args("AUTH", "user", "secret"), time.Millisecond, "1.2.3.4:5", "cli")
	long := make([]string, 40)
	for i := range long {
		long[i] = fmt.Sprint(i)
	}
	long[1] = strings.Repeat("x", 200)
	l.Record(0, args(long...), 0, "a", "")
	got := l.Slowlog(-1)
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 0 {
		t.Fatalf("entries %+v", got)
	}
	if a := got[1].Args; string(a[1]) != "(redacted)" || string(a[2]) != "(redacted)" || got[1].Addr != "1.2.3.4:5" || got[1].Name != "cli" || got[1].Micros != 1000 {
		t.Errorf("AUTH entry %+v", got[1])
	}
	if a := got[0].Args; len(a) != 32 || string(a[31]) != "... (9 more arguments)" || string(a[1]) != strings.Repeat("x", 128)+"... (72 more bytes)" {
		t.Errorf("long entry: %d args, last %q, second %q", len(a), a[len(a)-1], a[1])
	}
	for i := 0; i < 5; i++ {
		l.Record(0, args("PING"), 0, "", "")
	}
	if l.SlowlogLen() != 3 || len(l.Slowlog(2)) != 2 {
		t.Fatalf("len %d past max 3", l.SlowlogLen())
	}
	ids := func() (out []int64) {
		for _, e := range l.Slowlog(-1) {
			out = append(out, e.ID)
		}
		return out
	}
	if got := fmt.Sprint(ids()); got != "[6 5 4]" {
		t.Fatalf("IDs after wrapping %s, want the newest first", got)
	}
	l.SetMax(2)
	if got := fmt.Sprint(ids()); got != "[6 5]" {
		t.Fatalf("SetMax(2) kept %s", got)
	}
	l.Record(0, args("PING"), 0, "", "")
	if got := fmt.Sprint(ids()); got != "[7 6]" {
		t.Fatalf("after SetMax and a record: %s", got)
	}
	l.SetMax(1)
	if l.SlowlogLen() != 1 || l.Slowlog(-1)[0].ID != 7 {
		t.Fatalf("SetMax kept %d", l.SlowlogLen())
	}
	l.SlowlogReset()
	if l.SlowlogLen() != 0 {
		t.Fatal("reset kept entries")
	}
}

func TestRedacted(t *testing.T) {
	for _, c := range []struct {
		line []string
		want string
	}{
		{[]string{"GET", "k"}, "--"},
		{[]string{"auth", "p"}, "-x"},
		{[]string{"HELLO", "3", "AUTH", "u", "p", "SETNAME", "n"}, "---xx--"},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH", "p", "KEYS"}, "-------x-"},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH2", "u", "p"}, "-------xx"},
		{[]string{"NAMESPACE", "ADD", "ns", "token"}, "---x"},
		{[]string{"namespace", "del", "ns"}, "---"},
		{[]string{"ACL", "SETUSER", "u", "on", ">p"}, "--xxx"},
		{[]string{"acl", "getuser", "u"}, "---"},
		{[]string{"CONFIG", "SET", "maxmemory", "1", "MasterAuth", "", "requirepass", "p"}, "-----x-x"},
		{[]string{"config", "set", "masteruser"}, "---"},
	} {
		r := Redacted(args(c.line...))
		var b strings.Builder
		for _, x := range r {
			if x {
				b.WriteByte('x')
			} else {
				b.WriteByte('-')
			}
		}
		if b.String() != c.want {
			t.Errorf("%q: %s, want %s", c.line, b.String(), c.want)
		}
	}
}

func TestLatencyMonitor(t *testing.T) {
	var m LatencyMonitor
	m.Observe(0, false, time.Second) // off
	m.Observe(100, false, 99*time.Millisecond)
	if len(m.LatencyLatest()) != 0 {
		t.Fatal("sampled while off or below the threshold")
	}
	m.Observe(100, false, 150*time.Millisecond)
	m.Observe(100, false, 300*time.Millisecond) // same second: the larger kept
	m.Observe(100, true, 120*time.Millisecond)
	latest := m.LatencyLatest()
	if len(latest) != 2 || latest[0].Name != "command" || latest[0].Latest != 300 || latest[0].Max != 300 || latest[1].Name != "fast-command" {
		t.Fatalf("latest %+v", latest)
	}
	if h := m.LatencyHistory("command"); len(h) != 1 || h[0].Ms != 300 {
		t.Fatalf("history %+v", h)
	}
	if n := m.LatencyReset([]string{"command", "nope"}); n != 1 || len(m.LatencyLatest()) != 1 {
		t.Fatalf("reset %d", n)
	}
	if n := m.LatencyReset(nil); n != 1 || m.LatencyHistory("fast-command") != nil {
		t.Fatalf("reset all %d", n)
	}
}

func TestCommands(t *testing.T) {
	var s Commands
	get, set := &command.Spec{Name: "get"}, &command.Spec{Name: "set"}
	s.Done(get, 5*time.Microsecond, false)
	s.Done(get, 70*time.Microsecond, true)
	s.Done(set, 2*time.Second, false)
	s.Get("set").Rejected.Add(1)
	g := s.Get("get")
	if g.Calls.Load() != 2 || g.Usec.Load() != 75 || g.Failed.Load() != 1 || g.Buckets[0].Load() != 1 || g.Buckets[2].Load() != 1 {
		t.Fatalf("get: calls %d usec %d failed %d", g.Calls.Load(), g.Usec.Load(), g.Failed.Load())
	}
	if names := s.Names(); fmt.Sprint(names) != "[get set]" {
		t.Fatalf("names %v", names)
	}
	if p := g.Percentiles([]float64{50, 100}); p != "p50=10.000,p100=100.000" {
		t.Errorf("percentiles %q", p)
	}
	if p := s.Get("never").Percentiles([]float64{50}); p != "" {
		t.Errorf("no runs: %q", p)
	}
	h := s.LatencyHistogram([]string{"set"})
	if len(h) != 1 || h[0].Buckets[0] != [2]int64{-1, 1} {
		t.Fatalf("histogram %+v", h)
	}
	for i := 0; i < 200; i++ {
		s.CountError([]byte(fmt.Sprintf("-E%d message\r\n", i)))
	}
	s.CountError([]byte("-E1 again\r\n"))
	errs := s.Errors()
	if len(errs) != maxErrorCodes || errs["E1"] != 2 {
		t.Fatalf("%d codes, E1 %d", len(errs), errs["E1"])
	}
	s.Reset()
	if len(s.Names()) != 0 || len(s.Errors()) != 0 {
		t.Fatal("reset kept counters")
	}
	s.CountError([]byte("-ERR x\r\n"))
	if s.Errors()["ERR"] != 1 {
		t.Fatal("no counting after reset")
	}
}

// TestCommandsCacheBySpec: counters cached by a spec's ID are the ones
// its name finds, before and after a reset (which drops what the
// cache held), and a spec numbered past the cache is counted by name.
func TestCommandsCacheBySpec(t *testing.T) {
	var s Commands
	s.Size(2)
	get, set := &command.Spec{Name: "get", ID: 1}, &command.Spec{Name: "set", ID: 2}
	far, none := &command.Spec{Name: "far", ID: 3}, &command.Spec{Name: "none"}
	for _, sp := range []*command.Spec{get, set, far, none, get} {
		s.Done(sp, time.Microsecond, false)
	}
	for name, want := range map[string]int64{"get": 2, "set": 1, "far": 1, "none": 1} {
		if got := s.Get(name).Calls.Load(); got != want {
			t.Fatalf("%s: %d calls, want %d", name, got, want)
		}
	}
	if s.Of(get) != s.Get("get") {
		t.Fatal("the cache holds other counters than the name's")
	}
	if other := (&command.Spec{Name: "other", ID: 1}); s.Of(other) != s.Get("other") || s.Of(get) != s.Get("get") {
		t.Fatal("specs of two registries with one ID share counters")
	}
	s.Reset()
	s.Done(get, time.Microsecond, false)
	s.Of(set).Rejected.Add(1)
	if fmt.Sprint(s.Names()) != "[get set]" || s.Get("get").Calls.Load() != 1 || s.Get("set").Rejected.Load() != 1 {
		t.Fatalf("after a reset: %v, get %d calls, set %d rejected", s.Names(), s.Get("get").Calls.Load(), s.Get("set").Rejected.Load())
	}
}
