package compiler_test

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/policies"
	regolib "github.com/regate/regate/rego"
)

// TestRecipesAreFmtAndStrictClean compiles every policy under policies/
// (with the example hard guards and agents, and a place the self floor
// guards) and holds the generated modules to what `opa fmt` and `opa check
// --strict` demand: formatting leaves them unchanged and the strict
// compiler, with the library, finds nothing.
func TestRecipesAreFmtAndStrictClean(t *testing.T) {
	var agents []compiler.Source
	hg, err := fs.ReadFile(policies.FS, "hard-guards.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	mds, _ := fs.Glob(policies.FS, "agents/*.md")
	for _, p := range mds {
		b, _ := fs.ReadFile(policies.FS, p)
		agents = append(agents, compiler.Source{Name: p, Data: b})
	}
	recipes, _ := fs.Glob(policies.FS, "*.jsonc")
	n := 0
	for _, p := range recipes {
		if p == "hard-guards.jsonc" {
			continue
		}
		n++
		t.Run(p, func(t *testing.T) {
			b, _ := fs.ReadFile(policies.FS, p)
			out, err := compiler.Compile(compiler.Input{
				Policy:     &compiler.Source{Name: p, Data: b},
				HardGuards: &compiler.Source{Name: "hard-guards.jsonc", Data: hg},
				Agents:     agents,
				Guarded:    []compiler.Guarded{{Path: "~/.cache/regate", What: "regate's state folder", Folder: true}},
			}, compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatal(err)
			}
			if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
				t.Fatalf("recipe has errors: %v", fatal)
			}
			modules := map[string]string{}
			for _, m := range out.Modules {
				if !strings.HasPrefix(m.Text, compiler.Header+"\n") {
					t.Errorf("%s does not start with the generated-code header", m.Path)
				}
				modules[m.Path] = m.Text
			}
			strictCheck(t, modules)
		})
	}
	if n < 5 {
		t.Fatalf("only %d recipes under policies/", n)
	}
}

// strictCheck is `opa fmt --fail` and `opa check --strict` on the modules
// and the static library together.
func strictCheck(t *testing.T, modules map[string]string) {
	t.Helper()
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	parsed := map[string]*ast.Module{}
	for _, set := range []map[string]string{lib, modules} {
		for p, text := range set {
			formatted, err := format.Source(path.Base(p), []byte(text))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if string(formatted) != text {
				t.Errorf("%s is not opa fmt clean", p)
			}
			m, err := ast.ParseModuleWithOpts(p, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			parsed[p] = m
		}
	}
	c := ast.NewCompiler().WithStrict(true)
	if c.Compile(parsed); c.Failed() {
		t.Errorf("opa check --strict: %v", c.Errors)
	}
}
