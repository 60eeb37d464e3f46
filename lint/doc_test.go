package lint

import (
	"io/fs"
	"os"
	"path"
	"testing"
	"testing/fstest"
)

// missingDocs returns the directories of fsys holding non-test Go files
// but no doc.go, skipping vendored code (third_party), testdata and
// node_modules: each package explains its invariants in a doc.go.
func missingDocs(fsys fs.FS) ([]string, error) {
	hasGo, hasDoc := map[string]bool{}, map[string]bool{}
	err := sourceFiles(fsys, ".", func(p string) error {
		hasGo[path.Dir(p)] = true
		if path.Base(p) == "doc.go" {
			hasDoc[path.Dir(p)] = true
		}
		return nil
	})
	var out []string
	for dir := range hasGo {
		if !hasDoc[dir] {
			out = append(out, dir)
		}
	}
	return out, err
}

// TestEveryPackageHasDoc checks the real tree.
func TestEveryPackageHasDoc(t *testing.T) {
	dirs, err := missingDocs(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Errorf("%s: a package without doc.go (its comment and invariants go there)", d)
	}
}

// TestMissingDocCaught shows a package without doc.go is reported, and
// one with it, or with only tests, is not.
func TestMissingDocCaught(t *testing.T) {
	fsys := fstest.MapFS{
		"a/a.go":           {Data: []byte("package a\n")},
		"b/b.go":           {Data: []byte("package b\n")},
		"b/doc.go":         {Data: []byte("// Package b is.\npackage b\n")},
		"c/c_test.go":      {Data: []byte("package c\n")},
		"third_party/x.go": {Data: []byte("package x\n")},
	}
	dirs, err := missingDocs(fsys)
	if err != nil || len(dirs) != 1 || dirs[0] != "a" {
		t.Fatalf("got %v %v, want [a]", dirs, err)
	}
}
