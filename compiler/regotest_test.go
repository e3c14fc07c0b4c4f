package compiler_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/golden"
	regolib "github.com/regate/regate/rego"
)

// TestCompiledPoliciesPassTheirRegoTests is `opa test` on compiled output:
// each archive under testdata/regotest holds rule files and Rego test
// files; the rules are compiled, and OPA's test runner runs the tests over
// the library, the generated decision and the compiled rules as plain JSON
// data, as `regate compile --out` writes them for `opa test`. The tests'
// input documents are written by hand, without candidate keys, as a user's
// would be.
func TestCompiledPoliciesPassTheirRegoTests(t *testing.T) {
	paths, _ := filepath.Glob("testdata/regotest/*.txtar")
	if len(paths) < 5 {
		t.Fatalf("want the policy-level Rego tests, have %d archives", len(paths))
	}
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, files := golden.Read(t, path)
			out, err := compiler.Compile(inputFromFiles(files), compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatal(err)
			}
			modules := map[string]*ast.Module{}
			parse := func(p, text string) {
				m, err := ast.ParseModuleWithOpts(p, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
				if err != nil {
					t.Fatal(err)
				}
				modules[p] = m
			}
			for p, text := range lib {
				parse(p, text)
			}
			for _, m := range out.Modules {
				parse(m.Path, m.Text)
			}
			tests := 0
			for _, n := range slices.Sorted(maps.Keys(files)) {
				if strings.HasSuffix(n, ".rego") {
					parse(n, files[n])
					tests++
				}
			}
			if tests == 0 {
				t.Fatal("the archive holds no Rego test")
			}
			data, err := plainJSON(out.Data)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := tester.NewRunner().SetModules(modules).SetStore(inmem.NewFromObject(data)).RunTests(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			ran := 0
			for r := range ch {
				ran++
				if r.Fail || r.Error != nil {
					t.Errorf("%s.%s: fail=%v error=%v", r.Package, r.Name, r.Fail, r.Error)
				}
			}
			if ran == 0 {
				t.Error("no test ran")
			}
		})
	}
}

// plainJSON is compiled data as a data.json file holds it.
func plainJSON(data map[string]any) (map[string]any, error) {
	v, err := ast.InterfaceToValue(data)
	if err != nil {
		return nil, err
	}
	plain, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	m, _ := plain.(map[string]any)
	return m, nil
}
