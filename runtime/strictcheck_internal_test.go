package runtime

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/policies"
)

// TestLoadedModulesPassStrict: every module set the runtime prepares a
// query over (the library modules the query reaches and the generated
// modules, pure or with the fast twins) compiles under OPA's strict mode,
// as `opa check --strict` runs it, with the runtime's own builtins declared
// (stock OPA does not know them, and the bundle never holds a module that
// calls them).
func TestLoadedModulesPassStrict(t *testing.T) {
	src, err := policies.FS.ReadFile("default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: src}})
	if err != nil {
		t.Fatal(err)
	}
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = append(caps.Builtins,
		&ast.Builtin{Name: "regate_decide", Decl: types.NewFunction(types.Args(types.A, types.A), types.A)},
		&ast.Builtin{Name: "regate_decide_bound", Decl: types.NewFunction(types.Args(types.A), types.A)})
	// The delegation and profile deciders (packages delegate and profile)
	// prepare their queries with PrepareLibrary, the pure library.
	for _, query := range []string{Query, ResponseQuery, "data.regate.lib.ceiling.decision", "data.regate.lib.lease.decision", "data.regate.lib.profile.decision"} {
		for _, pure := range []bool{true, false} {
			q, lib, err := queryModules(query, pure)
			if err != nil {
				t.Fatal(err)
			}
			parsed := map[string]*ast.Module{}
			for p, text := range lib {
				parsed[p] = ast.MustParseModuleWithOpts(text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			}
			for _, m := range out.Modules {
				parsed[m.Path] = ast.MustParseModuleWithOpts(m.Text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			}
			c := ast.NewCompiler().WithStrict(true).WithCapabilities(caps)
			if c.Compile(parsed); c.Failed() {
				t.Errorf("%s (pure %v): opa check --strict: %v", query, pure, c.Errors)
				continue
			}
			if _, err := c.QueryCompiler().Compile(ast.MustParseBody(q)); err != nil {
				t.Errorf("%s (pure %v): query %s: %v", query, pure, q, err)
			}
		}
	}
}
