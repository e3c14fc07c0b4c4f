package rego_test

import (
	"context"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
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

// TestReachable: a query is prepared with the library packages it reaches
// and no others; reaching is transitive, and through the seeds (a
// generated module's own references); a query outside the library gets
// all of it.
func TestReachable(t *testing.T) {
	pure, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	names := func(mods map[string]string) string {
		var ns []string
		for p := range mods {
			ns = append(ns, strings.TrimSuffix(strings.TrimPrefix(p, "regate/lib/"), ".rego"))
		}
		sort.Strings(ns)
		return strings.Join(ns, ",")
	}
	for _, c := range []struct {
		query string
		seeds []string
		want  string
	}{
		{"data.regate.lib.permission.decision", nil, "permission"},
		{"data.regate.lib.permission.decision", []string{"data.regate.lib.decide"}, "decide,permission"},
		{"data.regate.gen.decision.decision", []string{"data.regate.lib.decide"}, "decide"},
		{"data.regate.lib.message.response", nil, "message,permission"},
		{"data.regate.lib.ceiling.decision", nil, "ceiling"},
		{"data.regate.lib.lease.decision", nil, "lease"},
		{"data.regate.lib.profile.resolve", nil, "profile"},
		{"data.other.thing", nil, names(pure)},
	} {
		if got := names(regolib.Reachable(pure, c.query, c.seeds...)); got != c.want {
			t.Errorf("%s %v: %s; want %s", c.query, c.seeds, got, c.want)
		}
	}
}

// TestDepsTableIsCurrent: deps_table.go is what `go generate ./rego`
// writes from the embedded library, so Reachable's answers come from OPA's
// parser as of this commit.
func TestDepsTableIsCurrent(t *testing.T) {
	want, err := regolib.DepsTable()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("deps_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("rego/deps_table.go is stale: run go generate ./rego")
	}
}

// TestReachableParsesUnknownText: a module the table does not know (here a
// library module with a comment added) is parsed, and reaches what it
// imports.
func TestReachableParsesUnknownText(t *testing.T) {
	lib := map[string]string{
		"a.rego": "# changed\npackage regate.lib.a\n\nimport data.regate.lib.b\n\nx := b.y\n",
		"b.rego": "package regate.lib.b\n\ny := 1\n",
		"c.rego": "package regate.lib.c\n\nz := 2\n",
	}
	got := regolib.Reachable(lib, "data.regate.lib.a.x")
	if len(got) != 2 || got["a.rego"] == "" || got["b.rego"] == "" {
		t.Fatalf("reached %v, want a.rego and b.rego", slices.Sorted(maps.Keys(got)))
	}
}
