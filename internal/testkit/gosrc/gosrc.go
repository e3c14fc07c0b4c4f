// Package gosrc reads facts out of Go source for tests: the string cases of
// a decoder's switch, the strings of a list. A test that holds a decoder to
// a published schema derives the keys the decoder reads from the decoder
// itself, so a case added without its schema property fails the test
// instead of passing unseen.
package gosrc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// SwitchCases returns the string constants of the case clauses of every
// switch statement in function fn of the Go file at path whose tag is
// written tag ("m.key", "key"), sorted and without repeats. fn is a
// function name, or a method name in the form "(*T).m". It is an error if
// no such switch exists, so a renamed decoder fails its test.
func SwitchCases(path, fn, tag string) ([]string, error) {
	f, fset, err := parse(path)
	if err != nil {
		return nil, err
	}
	decl := findFunc(f, fn)
	if decl == nil {
		return nil, fmt.Errorf("gosrc: %s has no function %s", path, fn)
	}
	var cases []string
	found := false
	var walkErr error
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || exprString(fset, sw.Tag) != tag {
			return true
		}
		found = true
		for _, st := range sw.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				s, err := stringLit(e)
				if err != nil {
					walkErr = fmt.Errorf("gosrc: %s: %s: %w", path, fset.Position(e.Pos()), err)
					return false
				}
				cases = append(cases, s)
			}
		}
		return true
	})
	if walkErr != nil {
		return nil, walkErr
	}
	if !found {
		return nil, fmt.Errorf("gosrc: %s: %s has no switch on %s", path, fn, tag)
	}
	slices.Sort(cases)
	return slices.Compact(cases), nil
}

// StringList returns the elements of the package-level variable name, a
// composite literal of string constants ([]string{"a", "b"}), sorted.
func StringList(path, name string) ([]string, error) {
	f, _, err := parse(path)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name != name || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.CompositeLit)
				if !ok {
					return nil, fmt.Errorf("gosrc: %s: %s is not a composite literal", path, name)
				}
				var out []string
				for _, e := range lit.Elts {
					s, err := stringLit(e)
					if err != nil {
						return nil, fmt.Errorf("gosrc: %s: %s: %w", path, name, err)
					}
					out = append(out, s)
				}
				slices.Sort(out)
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("gosrc: %s has no variable %s", path, name)
}

func parse(path string) (*ast.File, *token.FileSet, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	return f, fset, nil
}

func findFunc(f *ast.File, fn string) *ast.FuncDecl {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = "(" + recvType(fd.Recv.List[0].Type) + ")." + name
		}
		if name == fn {
			return fd
		}
	}
	return nil
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	var walk func(ast.Expr)
	walk = func(e ast.Expr) {
		switch t := e.(type) {
		case *ast.Ident:
			b.WriteString(t.Name)
		case *ast.SelectorExpr:
			walk(t.X)
			b.WriteString("." + t.Sel.Name)
		default:
			b.WriteString(fmt.Sprintf("<%T at %s>", e, fset.Position(e.Pos())))
		}
	}
	walk(e)
	return b.String()
}

func stringLit(e ast.Expr) (string, error) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", fmt.Errorf("%T is not a string constant", e)
	}
	return strconv.Unquote(bl.Value)
}
