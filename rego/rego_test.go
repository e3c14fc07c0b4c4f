package rego_test

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	regolib "github.com/regate/regate/rego"
)

// TestRegoLibrary runs the library's test_ rules through OPA's tester, so
// that go test ./... covers the Rego too.
func TestRegoLibrary(t *testing.T) {
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	tests, err := regolib.TestModules()
	if err != nil {
		t.Fatal(err)
	}
	modules := map[string]*ast.Module{}
	for _, set := range []map[string]string{lib, tests} {
		for path, text := range set {
			m, err := ast.ParseModuleWithOpts(path, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			if err != nil {
				t.Fatal(err)
			}
			modules[path] = m
		}
	}
	ch, err := tester.NewRunner().SetModules(modules).RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		if r.Fail || r.Error != nil {
			t.Errorf("%s.%s: fail=%v error=%v", r.Package, r.Name, r.Fail, r.Error)
		}
	}
	if n < 20 {
		t.Errorf("ran %d Rego tests; expected the whole library suite", n)
	}
}
