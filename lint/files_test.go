package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strings"
)

// sourceFiles calls fn with the path of each non-test Go file under dir
// of fsys, skipping vendored code (third_party), testdata, node_modules
// and .git.
func sourceFiles(fsys fs.FS, dir string, fn func(p string) error) error {
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "third_party", "testdata", "node_modules", ".git":
				return fs.SkipDir
			}
			return nil
		}
		if path.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		return fn(p)
	})
}

// parse parses Go file p of fsys.
func parse(fsys fs.FS, p string) (*token.FileSet, *ast.File, error) {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, 0)
	return fset, f, err
}
