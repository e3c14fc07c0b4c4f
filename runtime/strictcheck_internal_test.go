package runtime

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
)

// TestLoadedModulesPassStrict: every module set the runtime prepares a
// query over (the library modules the query reaches and the generated
// modules) compiles under OPA's strict mode, as `opa check --strict` runs
// it, with stock OPA's capabilities: the decision calls no builtin of
// regate's own. Policies of every shape the generator specialises for:
// strict, yolo, hard guards, agents (one failing), a broken policy, and
// entries to confirm of each kind.
func TestLoadedModulesPassStrict(t *testing.T) {
	def, err := policies.FS.ReadFile("default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	hg, err := policies.FS.ReadFile("hard-guards.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]compiler.Input{
		"default": {Policy: &compiler.Source{Name: "default.jsonc", Data: def}},
		"bench":   {Policy: &compiler.Source{Name: "bench.jsonc", Data: []byte(workload.Policy(100))}},
		"everything": {
			Policy:     &compiler.Source{Name: "p.jsonc", Data: []byte(`{"yoloMode": true, "permission": {"*": "deny", "bash": {"g?t *": "ask", "x*": "allow", "*.sh": "deny"}}}`)},
			HardGuards: &compiler.Source{Name: "h.jsonc", Data: hg},
			Agents: []compiler.Source{
				{Name: "agents/a.md", Data: []byte("---\npermission:\n  \"*\": ask\n  bash: allow\n---\n")},
				{Name: "agents/b.md", Data: []byte("---\npermission: [\n---\n")},
			},
		},
		"broken": {Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {"read": "alow"}}`)}},
		"none":   {},
	}
	for name, in := range inputs {
		out, err := compiler.Compile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, query := range []string{decisionQuery, Query, ResponseQuery, "data.regate.lib.ceiling.decision", "data.regate.lib.lease.decision", "data.regate.lib.profile.decision"} {
			lib, err := queryModules(query, out.Modules)
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
			c := ast.NewCompiler().WithStrict(true).WithCapabilities(ast.CapabilitiesForThisVersion())
			if c.Compile(parsed); c.Failed() {
				t.Errorf("%s, %s: opa check --strict: %v", name, query, c.Errors)
				continue
			}
			if _, err := c.QueryCompiler().Compile(ast.MustParseBody(query)); err != nil {
				t.Errorf("%s: query %s: %v", name, query, err)
			}
		}
	}
}
