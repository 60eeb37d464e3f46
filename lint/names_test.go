package lint

import (
	"go/ast"
	"go/token"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// nameAllowed are the files that may branch on a command's name, and why.
var nameAllowed = map[string]string{
	"repl/apply.go": "the replication stream's own framing (PING, REPLCONF, SELECT, MULTI/EXEC/DISCARD, PUBLISH) is the applier's protocol, not commands run for a client",
}

// nameComparisons returns "file:line: what" for each place in the
// non-test Go files of fsys that decides by a command's name instead of
// its Spec: a comparison of a .Name field or a FullName() call with a
// string literal, a switch on either, and, outside the command families
// (actors/command/...), command.Is(args[0], "..."). Special behaviour is a
// Spec flag or hook, declared where the command is registered.
func nameComparisons(fsys fs.FS) ([]string, error) {
	var out []string
	err := sourceFiles(fsys, ".", func(p string) error {
		if _, ok := nameAllowed[p]; ok {
			return nil
		}
		fset, f, err := parse(fsys, p)
		if err != nil {
			return err
		}
		family := strings.HasPrefix(p, "actors/command/")
		report := func(n ast.Node, what string) {
			out = append(out, fset.Position(n.Pos()).String()+": "+what)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isName(n.X) && isString(n.Y) || isName(n.Y) && isString(n.X)) {
					report(n, "compares a command's name")
				}
			case *ast.SwitchStmt:
				if n.Tag != nil && isName(n.Tag) {
					report(n, "switches on a command's name")
				}
			case *ast.CallExpr:
				if !family && isCommandIs(n) {
					report(n, "matches a command line's name (command.Is(args[0], ...))")
				}
			}
			return true
		})
		return nil
	})
	return out, err
}

// isName reports whether e is x.Name or x.FullName().
func isName(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Name"
	case *ast.CallExpr:
		s, ok := e.Fun.(*ast.SelectorExpr)
		return ok && s.Sel.Name == "FullName" && len(e.Args) == 0
	}
	return false
}

func isString(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING
}

// isCommandIs reports whether c is command.Is(x[0], "...").
func isCommandIs(c *ast.CallExpr) bool {
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Is" || len(c.Args) != 2 {
		return false
	}
	if pkg, ok := s.X.(*ast.Ident); !ok || pkg.Name != "command" {
		return false
	}
	idx, ok := c.Args[0].(*ast.IndexExpr)
	if !ok {
		return false
	}
	zero, ok := idx.Index.(*ast.BasicLit)
	return ok && zero.Value == "0" && isString(c.Args[1])
}

// TestNoCommandNameComparisons checks the real tree.
func TestNoCommandNameComparisons(t *testing.T) {
	found, err := nameComparisons(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: declare the behaviour as a Spec flag or hook (actors/command/spec.go)", f)
	}
}

// TestNameComparisonCaught shows each form reported, and a family's
// parser reading its own arguments not.
func TestNameComparisonCaught(t *testing.T) {
	fsys := fstest.MapFS{
		"net/a.go": {Data: []byte(`package net
func f(spec *command.Spec, args [][]byte) {
	if spec.Name == "exec" {
	}
	if "watch" != spec.FullName() {
	}
	switch spec.Name {
	}
	if command.Is(args[0], "select") {
	}
}
`)},
		"actors/command/tx/p.go": {Data: []byte(`package tx
func parse(args [][]byte) bool { return command.Is(args[0], "function") || command.Is(args[1], "sync") }
`)},
		"repl/apply.go": {Data: []byte(`package repl
func g(args [][]byte) bool { return command.Is(args[0], "ping") }
`)},
	}
	found, err := nameComparisons(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 4 {
		t.Fatalf("found %d, want 4 (the four in net/a.go):\n%s", len(found), strings.Join(found, "\n"))
	}
	for _, f := range found {
		if !strings.HasPrefix(f, "net/a.go:") {
			t.Errorf("reported outside net/a.go: %s", f)
		}
	}
}
