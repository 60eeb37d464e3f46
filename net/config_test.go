package net

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rekv/rekv/settings"
)

// TestLiveSettingsHaveAnEffect: the parameters the settings table marks
// live are exactly those CONFIG SET puts into effect (liveConfig, and the
// tls-* options reloaded together): a live row with no effect, or an
// effect for a parameter the table says is only kept, fails.
func TestLiveSettingsHaveAnEffect(t *testing.T) {
	effects := (&Server{}).liveConfig()
	for _, row := range settings.Config(settings.Table()) {
		if row.Alias != "" {
			continue
		}
		_, has := effects[row.Redis]
		has = has || isTLSOption(row.Redis)
		switch live := row.Apply == settings.Live; {
		case live && !has:
			t.Errorf("%s: live in the settings table, but CONFIG SET has no effect for it", row.Redis)
		case !live && has:
			t.Errorf("%s: CONFIG SET puts it into effect, but the settings table does not say it is live", row.Redis)
		}
		delete(effects, row.Redis)
	}
	for name := range effects {
		t.Errorf("%s: an effect for a parameter the settings table does not have", name)
	}
}

// TestConfigTableFromSettings: the CONFIG table is the settings table's:
// its types, bounds and what may not be set.
func TestConfigTableFromSettings(t *testing.T) {
	c := loadConfig(nil)
	for _, tc := range []struct {
		name, value, err string
	}{
		{"maxclients", "0", "ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument must be between 1 and 4294967295 inclusive"},
		{"appendfsync", "sometimes", "ERR CONFIG SET failed (possibly related to argument 'appendfsync') - argument(s) must be one of the following: everysec, always, no"},
		{"dir", "/x", "ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config"},
		{"tls-port", "1", "ERR CONFIG SET failed (possibly related to argument 'tls-port') - can't set immutable config"},
		{"proto-max-bulk-len", "2mb", ""},
		{"slave-read-only", "no", ""},
	} {
		err := c.set([][2]string{{tc.name, tc.value}}, func(string, string) error { return nil }, false)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("CONFIG SET %s %s: %q, want %q", tc.name, tc.value, got, tc.err)
		}
	}
	if v := c.values["proto-max-bulk-len"]; v != "2097152" {
		t.Errorf("proto-max-bulk-len = %q after CONFIG SET 2mb", v)
	}
	if v := c.values["replica-read-only"]; v != "no" {
		t.Errorf("replica-read-only = %q after CONFIG SET slave-read-only no", v)
	}
}

// TestRewriteToOwnKeys: CONFIG REWRITE writes a parameter with a setting
// of its own under that setting's key, in the file's form, and any other
// under server.redis, keeping the file's comments.
func TestRewriteToOwnKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rekv.yaml")
	if err := os.WriteFile(file, []byte("# mine\nserver:\n  port: 6380 # the port\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := rewriteFile(file, [][2]string{{"appendfsync", "always"}, {"hash-max-listpack-entries", "64"},
		{"port", "7001"}, {"protected-mode", "no"}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "# mine\nserver:\n  port: 7001 # the port\n  redis:\n    hash-max-listpack-entries: \"64\"\n" +
		"    protected-mode: \"no\"\nstorage:\n  badger:\n    durability: \"always\"\n"
	if string(got) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
	}
}
