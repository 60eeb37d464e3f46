package settings

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFilesAreCurrent: rekv.example.yaml and docs/settings.md
// are what the table generates (go generate ./settings rewrites them).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	table := Table()
	for name, want := range map[string][]byte{
		"../rekv.example.yaml": Example(table),
		"../docs/settings.md":  Markdown(table),
	} {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./settings", name)
		}
	}
}

// TestRowsAreWellFormed: each key and CONFIG name is in one row; an alias
// names a row and has nothing else; every default parses and is within
// its bounds; an enum lists its values.
func TestRowsAreWellFormed(t *testing.T) {
	keys, names := map[string]bool{}, map[string]Setting{}
	table := Table()
	for _, s := range table {
		if s.Key == "" && s.Redis == "" {
			t.Errorf("%+v: a row with neither a key nor a CONFIG name", s)
		}
		if s.Key != "" && keys[s.Key] {
			t.Errorf("%s: two rows", s.Key)
		}
		keys[s.Key] = true
		if _, ok := names[s.Redis]; ok && s.Redis != "" {
			t.Errorf("%s: two rows", s.Redis)
		}
		names[s.Redis] = s
		if s.Alias != "" {
			if s.Type != 0 || s.Key != "" || s.Default != "" {
				t.Errorf("%s: an alias with settings of its own", s.Redis)
			}
			continue
		}
		if s.Type == 0 {
			t.Errorf("%s%s: no type", s.Key, s.Redis)
		}
		if s.Type == Enum && len(s.Values) == 0 {
			t.Errorf("%s%s: an enum with no values", s.Key, s.Redis)
		}
		if s.Key == "" {
			continue
		}
		v, err := s.Parse(s.Default)
		if err != nil {
			t.Errorf("%s: default %q: %v", s.Key, s.Default, err)
			continue
		}
		if why := s.Check(v); why != "" {
			t.Errorf("%s: default %q: %s", s.Key, s.Default, why)
		}
	}
	for _, s := range table {
		if s.Alias != "" {
			if target, ok := names[s.Alias]; !ok || target.Alias != "" {
				t.Errorf("%s: alias of %q, which is not a parameter", s.Redis, s.Alias)
			}
		}
	}
}

// TestCheck: the messages a value out of bounds gets.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		s    Setting
		v    any
		want string
	}{
		{Setting{Type: Int, Bounded: true, Min: 0, Max: 65535}, int64(70000), "must be 0..65535, got 70000"},
		{Setting{Type: Int, Bounded: true, Min: 0, Max: 1<<63 - 1, Hint: "0 disables"}, int64(-1), "must not be negative (0 disables), got -1"},
		{Setting{Type: Int, Bounded: true, Min: 1, Max: 1<<63 - 1}, int64(0), "must be positive, got 0"},
		{Setting{Type: Int, Bounded: true, Min: 1024, Max: 1<<63 - 1}, int64(5), "must be at least 1024, got 5"},
		{Setting{Type: Int}, int64(-5), ""},
		{Setting{Type: Enum, Values: []string{"a", "b", "c"}}, "d", `must be a, b or c, got "d"`},
		{Setting{Type: Enum, Values: []string{"a", "b"}}, "b", ""},
	} {
		if got := tc.s.Check(tc.v); got != tc.want {
			t.Errorf("Check(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
