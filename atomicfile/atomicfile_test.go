package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := Write(file, 0o640, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing fill leaves the old content and no temporary file.
	boom := errors.New("boom")
	if err := Write(file, 0o640, func(w io.Writer) error { _, _ = io.WriteString(w, "two"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	data, err := os.ReadFile(file)
	if err != nil || string(data) != "one" {
		t.Fatalf("after a failed write: %q %v", data, err)
	}
	st, _ := os.Stat(file)
	if st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}
