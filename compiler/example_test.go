package compiler_test

import (
	"fmt"
	"strings"

	"github.com/regate/regate/compiler"
)

// A policy in, generated Rego and data out.
func ExampleCompile() {
	policy := []byte(`{
  "permission": {
    "*": "ask",
    "bash": {"git status": "allow", "npm *": {"action": "deny", "reason": "use pnpm"}}
  }
}`)
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policy}}, compiler.WithHome("/home/u"))
	if err != nil {
		panic(err) // regate itself failed; bad rules are diagnostics
	}
	for _, m := range out.Modules {
		fmt.Println(m.Path, strings.SplitN(m.Text, "\n", 2)[0] == compiler.Header)
	}
	files, err := out.DataFiles()
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		fmt.Println(f.Path)
	}
	fmt.Println(len(out.Diagnostics), "diagnostics")
	// Output:
	// regate/gen/decision.rego true
	// regate/rules/agents/data.json
	// regate/rules/hardguards/data.json
	// regate/rules/policy/data.json
	// 0 diagnostics
}

// Bad input is a positioned diagnostic with a stable code, and the file
// fails closed: it is never a Go error.
func ExampleCompile_diagnostics() {
	policy := []byte(`{
  "permission": {
    "bash": {"rm *": "forbid"}
  }
}`)
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policy}})
	if err != nil {
		panic(err)
	}
	for _, d := range out.Diagnostics {
		fmt.Println(d.Pos, d.Severity, d.Code)
	}
	// Output:
	// policy.jsonc:3:22 error policy_unknown_action
}
