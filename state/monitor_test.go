package state

import (
	"regexp"
	"testing"
)

func TestMonitors(t *testing.T) {
	var m Monitors
	m.Monitor(0, "x", args("GET", "k")) // nobody watching: nothing to do
	if m.Monitoring() {
		t.Fatal("monitoring with no monitors")
	}
	a := &fakeSub{proto: 2}
	m.AddMonitor(a)
	m.AddMonitor(a)
	m.Monitor(3, "127.0.0.1:5000", args("AUTH", "u", "pw"))
	m.Monitor(0, "lua", args("SET", "k", "a\"b\\c\n\x01é"))
	if len(a.got) != 2 {
		t.Fatalf("got %q", a.got)
	}
	line := regexp.MustCompile(`^\+\d+\.\d{6} `)
	rest := func(l string) string { return line.ReplaceAllString(l, "") }
	if !line.MatchString(a.got[0]) || rest(a.got[0]) != `[3 127.0.0.1:5000] "AUTH" "(redacted)" "(redacted)"`+"\r\n" {
		t.Errorf("line %q", a.got[0])
	}
	if rest(a.got[1]) != `[0 lua] "SET" "k" "a\"b\\c\n\x01\xc3\xa9"`+"\r\n" {
		t.Errorf("repr %q", rest(a.got[1]))
	}
	m.RemoveMonitor(a)
	m.RemoveMonitor(a)
	if m.Monitoring() {
		t.Fatal("still monitoring")
	}
}
