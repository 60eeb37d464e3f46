package lint

import (
	"go/ast"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
)

// sizeMethods are store.Coll's methods that change a collection's count
// or bounds. Only the type packages (actors/types/*) call them: a type
// keeps its own counts, and a command asks it to add or remove members.
var sizeMethods = map[string]bool{"Grow": true, "SetBounds": true, "SetStream": true, "Rebase": true}

// sizeBookkeeping returns "file:line: X called" for each call of a size
// method in the non-test Go files under dir of fsys.
func sizeBookkeeping(fsys fs.FS, dir string) ([]string, error) {
	var out []string
	err := sourceFiles(fsys, dir, func(p string) error {
		fset, f, err := parse(fsys, p)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sizeMethods[sel.Sel.Name] {
				out = append(out, fset.Position(call.Pos()).String()+": "+sel.Sel.Name+" called")
			}
			return true
		})
		return nil
	})
	return out, err
}

// TestCommandsKeepNoCounts checks no command folder adjusts a
// collection's count itself.
func TestCommandsKeepNoCounts(t *testing.T) {
	calls, err := sizeBookkeeping(os.DirFS(".."), "actors/command")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		t.Errorf("%s: a command keeps a collection's count; the type's package should (actors/types/*)", c)
	}
}

// TestSizeBookkeepingCaught shows a command's Grow is reported, and a
// test file's is not.
func TestSizeBookkeepingCaught(t *testing.T) {
	src := "package hash\n\nfunc run(c coll) error {\n\tif err := c.Put(f, v); err != nil {\n\t\treturn err\n\t}\n\treturn c.Grow(1)\n}\n"
	fsys := fstest.MapFS{
		"actors/command/hash/hset.go":      {Data: []byte(src)},
		"actors/command/hash/hset_test.go": {Data: []byte(src)},
	}
	got, err := sizeBookkeeping(fsys, "actors/command")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "actors/command/hash/hset.go:7:9: Grow called" {
		t.Fatalf("got %q", got)
	}
}
