package lint

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// maxLines bounds a non-test Go file: past it a file holds more than one
// role and is split by role (as actors/store's tx.go was).
const maxLines = 700

// longFiles returns "path: N lines" for each non-test Go file of fsys
// longer than max lines, skipping vendored code (third_party), testdata
// and node_modules.
func longFiles(fsys fs.FS, max int) ([]string, error) {
	var out []string
	err := sourceFiles(fsys, ".", func(p string) error {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if n := bytes.Count(data, []byte("\n")); n > max {
			out = append(out, p+": "+strconv.Itoa(n)+" lines")
		}
		return nil
	})
	return out, err
}

// TestNoLongFiles checks the real tree.
func TestNoLongFiles(t *testing.T) {
	long, err := longFiles(os.DirFS(".."), maxLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range long {
		t.Errorf("%s (at most %d: split it by role)", l, maxLines)
	}
}

// TestLongFilesCaught shows a long file is reported, and test files,
// vendored code and short files are not.
func TestLongFilesCaught(t *testing.T) {
	lines := func(n int) *fstest.MapFile { return &fstest.MapFile{Data: []byte(strings.Repeat("x\n", n))} }
	fsys := fstest.MapFS{
		"net/server.go":             lines(701),
		"net/server_test.go":        lines(5000),
		"third_party/x/big.go":      lines(5000),
		"actors/store/tx.go":        lines(700),
		"integration/testdata/a.go": lines(900),
		"README.md":                 lines(900),
	}
	got, err := longFiles(fsys, maxLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "net/server.go: 701 lines" {
		t.Fatalf("got %q, want only net/server.go: 701 lines", got)
	}
}
