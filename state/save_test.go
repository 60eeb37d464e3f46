package state

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSaver(t *testing.T) {
	v := &Saver{NoBackup: "no backups here", Log: slog.New(slog.DiscardHandler)}
	start := time.Unix(1700000000, 0)
	v.Start(start)
	if _, err := v.Save(false, false); err == nil || err.Error() != "ERR no backups here" {
		t.Fatalf("no backup: %v", err)
	}
	release := make(chan struct{})
	v.File = filepath.Join(t.TempDir(), "sub", "backup.bin")
	v.Backup = func(w io.Writer) error {
		<-release
		_, err := io.WriteString(w, "data")
		return err
	}
	v.Dirty(5)
	if st, err := v.Save(true, false); st != "Background saving started" || err != nil {
		t.Fatalf("BGSAVE: %q %v", st, err)
	}
	if _, err := v.Save(false, false); err == nil || err.Error() != "ERR Background save already in progress" {
		t.Fatalf("SAVE during BGSAVE: %v", err)
	}
	if st, _ := v.Save(true, true); st != "Background saving scheduled" {
		t.Fatalf("BGSAVE SCHEDULE: %q", st)
	}
	info := func(name string) any {
		for _, kv := range v.Info() {
			if kv[0] == name {
				return kv[1]
			}
		}
		return nil
	}
	deadline := time.Now().Add(10 * time.Second)
	for info("rdb_bgsave_in_progress") != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the background save is starting
	}
	if info("rdb_bgsave_in_progress") != 1 {
		close(release)
		t.Fatalf("in progress: %v", v.Info())
	}
	close(release)
	for info("rdb_saves") != int64(2) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if info("rdb_saves") != int64(2) || info("rdb_changes_since_last_save") != int64(0) || info("rdb_last_bgsave_status") != "ok" {
		t.Fatalf("after two saves: %v", v.Info())
	}
	if b, err := os.ReadFile(v.File); err != nil || string(b) != "data" {
		t.Fatalf("backup file %q %v", b, err)
	}
	if v.LastSave() < start.Unix() {
		t.Fatal("LASTSAVE not advanced")
	}
	v.Backup = func(io.Writer) error { return os.ErrPermission }
	if _, err := v.Save(false, false); err == nil || info("rdb_last_bgsave_status") != "err" {
		t.Fatalf("failed save: %v %v", err, v.Info())
	}
}
