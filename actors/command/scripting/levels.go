package scripting

import (
	"fmt"
	"reflect"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Syntax levels.
//
// Lua 5.1's parser counts its nested blocks and subexpressions and refuses
// a chunk past LUAI_MAXCCALLS (200) levels: "chunk has too many syntax
// levels". gopher-lua's parser has no such bound, and its compiler recurses
// on the Go stack once per nested node and is quadratic in nested blocks
// (100,000 nested do ... end blocks compile in 13 s). A Go stack overflow
// is fatal, so a script's nesting is measured on its syntax tree, without
// recursion, before it is compiled:
//
//   - levels as Lua 5.1 counts them: one per block (the chunk, a function
//     body, a do/while/for/if/repeat body) and one per subexpression, where
//     the left operand of a left-associative operator stays at its
//     operator's level (Lua parses a chain a+b+c in a loop). More than
//     luaMaxSyntaxLevels is refused with Lua's error, as Redis refuses it.
//     Parentheses leave no node in gopher-lua's tree, so ((((1)))) counts
//     less here than in Lua: such a script may compile here and not there.
//   - the tree's depth, which a long left-associative chain (1+1+...+1)
//     grows without growing Lua's levels: Redis compiles such a chain at
//     any length; past maxSyntaxDepth nodes it is refused here (the Go
//     compiler uses about 160 bytes of stack a node: 160 MB at the bound,
//     well under Go's 1 GB stack limit).
const (
	luaMaxSyntaxLevels = 200
	maxSyntaxDepth     = 1_000_000
)

// parseChunk parses a script's source and checks its nesting.
func parseChunk(src, name string) ([]ast.Stmt, error) {
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err != nil {
		return nil, err
	}
	if err := checkLevels(chunk, name); err != nil {
		return nil, err
	}
	return chunk, nil
}

// compileChunk parses, checks and compiles a script's source.
func compileChunk(src, name string) (*lua.FunctionProto, error) {
	chunk, err := parseChunk(src, name)
	if err != nil {
		return nil, err
	}
	return lua.Compile(chunk, name)
}

// levelsError is a chunk refused for its nesting; its text is Lua's
// "name:line: message".
type levelsError struct {
	name, msg string
	line      int
}

func (e *levelsError) Error() string { return fmt.Sprintf("%s:%d: %s", e.name, e.line, e.msg) }

// nested is one node still to visit: its Lua level and its tree depth.
type nested struct {
	node         any // ast.Stmt, ast.Expr, or block (a statement list)
	level, depth int
}

// block is a statement list: it opens a level.
type block []ast.Stmt

// checkLevels walks chunk with an explicit stack (never the Go stack).
func checkLevels(chunk []ast.Stmt, name string) error {
	stack := []nested{{node: block(chunk), level: 0, depth: 0}}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.level > luaMaxSyntaxLevels {
			return &levelsError{name: name, line: lineOf(n.node), msg: "chunk has too many syntax levels"}
		}
		if n.depth > maxSyntaxDepth {
			return &levelsError{name: name, line: lineOf(n.node),
				msg: fmt.Sprintf("expression nested too deeply (over %d nodes)", maxSyntaxDepth)}
		}
		// push adds a child at the given level offset from n's.
		push := func(child any, dlevel int) {
			if child == nil || isNilExpr(child) {
				return
			}
			stack = append(stack, nested{node: child, level: n.level + dlevel, depth: n.depth + 1})
		}
		exprs := func(es []ast.Expr, dlevel int) {
			for _, e := range es {
				push(e, dlevel)
			}
		}
		binary := func(lhs, rhs ast.Expr) {
			push(lhs, 0)
			push(rhs, 1)
		}
		switch x := n.node.(type) {
		case block:
			if n.level+1 > luaMaxSyntaxLevels { // even an empty block opens a level
				return &levelsError{name: name, line: lineOf(n.node), msg: "chunk has too many syntax levels"}
			}
			for _, s := range x {
				push(s, 1) // the chunk's level; statements sit at it
			}
		// Statements: n.level is their block's level.
		case *ast.AssignStmt:
			exprs(x.Lhs, 0)
			exprs(x.Rhs, 1)
		case *ast.LocalAssignStmt:
			exprs(x.Exprs, 1)
		case *ast.FuncCallStmt:
			push(x.Expr, 0)
		case *ast.DoBlockStmt:
			push(block(x.Stmts), 0)
		case *ast.WhileStmt:
			push(x.Condition, 1)
			push(block(x.Stmts), 0)
		case *ast.RepeatStmt:
			push(block(x.Stmts), 0)
			push(x.Condition, 1)
		case *ast.IfStmt:
			push(x.Condition, 1)
			push(block(x.Then), 0)
			if len(x.Else) == 1 {
				if elseif, ok := x.Else[0].(*ast.IfStmt); ok { // elseif: no new level
					push(elseif, 0)
					break
				}
			}
			push(block(x.Else), 0)
		case *ast.NumberForStmt:
			push(x.Init, 1)
			push(x.Limit, 1)
			push(x.Step, 1)
			push(block(x.Stmts), 0)
		case *ast.GenericForStmt:
			exprs(x.Exprs, 1)
			push(block(x.Stmts), 0)
		case *ast.FuncDefStmt:
			if x.Name != nil {
				push(x.Name.Func, 0)
				push(x.Name.Receiver, 0)
			}
			if x.Func != nil {
				push(block(x.Func.Stmts), 0)
			}
		case *ast.ReturnStmt:
			exprs(x.Exprs, 1)
		// Expressions: n.level is the subexpression's.
		case *ast.AttrGetExpr:
			push(x.Object, 0)
			push(x.Key, 1)
		case *ast.TableExpr:
			for _, f := range x.Fields {
				push(f.Key, 1)
				push(f.Value, 1)
			}
		case *ast.FuncCallExpr:
			push(x.Func, 0)
			push(x.Receiver, 0)
			exprs(x.Args, 1)
		// A binary operator's left operand is read in its operator's
		// subexpression, its right one in a new one.
		case *ast.LogicalOpExpr:
			binary(x.Lhs, x.Rhs)
		case *ast.RelationalOpExpr:
			binary(x.Lhs, x.Rhs)
		case *ast.StringConcatOpExpr:
			binary(x.Lhs, x.Rhs)
		case *ast.ArithmeticOpExpr:
			binary(x.Lhs, x.Rhs)
		case *ast.UnaryMinusOpExpr:
			push(x.Expr, 1)
		case *ast.UnaryNotOpExpr:
			push(x.Expr, 1)
		case *ast.UnaryLenOpExpr:
			push(x.Expr, 1)
		case *ast.FunctionExpr:
			push(block(x.Stmts), 0)
		}
	}
	return nil
}

// isNilExpr reports a typed nil pointer (an absent optional node).
func isNilExpr(n any) bool {
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// lineOf returns the source line of a node (a block's first statement's).
func lineOf(n any) int {
	switch x := n.(type) {
	case ast.Expr:
		return x.Line()
	case ast.Stmt:
		return x.Line()
	case block:
		if len(x) > 0 {
			return x[0].Line()
		}
	}
	return 1
}
