package glob

import (
	"bytes"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		p, s string
		want bool
	}{
		{"*", "", false}, {"*", "abc", true}, {"", "", true}, {"", "a", false},
		{"a*", "abc", true}, {"a*", "bac", false}, {"*c", "abc", true}, {"a*c", "abbbc", true},
		{"h?llo", "hello", true}, {"h?llo", "hllo", false},
		{"h[ae]llo", "hallo", true}, {"h[ae]llo", "hillo", false},
		{"h[^e]llo", "hallo", true}, {"h[^e]llo", "hello", false},
		{"h[a-b]llo", "hbllo", true}, {"h[b-a]llo", "hallo", true}, {"h[a-b]llo", "hcllo", false},
		{"h\\*llo", "h*llo", true}, {"h\\*llo", "hello", false},
		{"[\\]]", "]", true}, {"a[", "a", false}, {"[abc", "b", true},
		{"foo*", "foo", true}, {"**a", "a", true}, {"a*b*c", "aXbYc", true}, {"a*b*c", "aXbY", false},
		{"\\", "\\", true},
	}
	for _, c := range cases {
		if got := Match([]byte(c.p), []byte(c.s), false); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.p, c.s, got, c.want)
		}
	}
	if !Match([]byte("HeL*"), []byte("hello"), true) || Match([]byte("HeL*"), []byte("hello"), false) {
		t.Error("nocase")
	}
}

// TestMatchBounded is the pathological case that is exponential without
// the skip-longer-matches rule; it must finish at once.
func TestMatchBounded(t *testing.T) {
	p := []byte(strings.Repeat("a*", 30) + "b")
	s := bytes.Repeat([]byte("a"), 60)
	if Match(p, s, false) {
		t.Fatal("matched")
	}
}

func TestLiteralPrefix(t *testing.T) {
	for p, want := range map[string]string{"abc*": "abc", "a\\*b?": "a*b", "*": "", "user:[0-9]": "user:", "plain": "plain"} {
		if got := string(LiteralPrefix([]byte(p))); got != want {
			t.Errorf("LiteralPrefix(%q) = %q, want %q", p, got, want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add([]byte("a*[b-c]?\\"), []byte("abcd"))
	f.Fuzz(func(t *testing.T, p, s []byte) {
		got := Match(p, s, false)
		// Every match starts with the literal prefix.
		if got && !bytes.HasPrefix(s, LiteralPrefix(p)) {
			t.Fatalf("%q matches %q but lacks prefix %q", p, s, LiteralPrefix(p))
		}
	})
}
