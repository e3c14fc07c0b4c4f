package runtime_test

import (
	"context"
	"fmt"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// An input document in, a decision out: the most specific pattern wins
// within each check, and the most restrictive check wins the call.
func ExampleEngine_DecideFacts() {
	policy := []byte(`{"permission": {"*": "ask", "bash": {"git *": "allow", "git push --force*": "deny"}}}`)
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policy}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	e, err := runtime.New(ctx, out, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		panic(err)
	}
	for _, cmd := range []string{"git status", "git fetch && git push --force origin main", "make"} {
		in := e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
		d, err := e.DecideFacts(ctx, in)
		if err != nil {
			panic(err) // regate could not decide: the host blocks the call
		}
		fmt.Printf("%s: %s by %q (%s, %s)\n", cmd, d.Action, d.Matched, d.Layer, d.Pos)
	}
	// Output:
	// git status: allow by "git *" (policy, policy.jsonc:1:38)
	// git fetch && git push --force origin main: deny by "git push --force*" (policy, policy.jsonc:1:56)
	// make: ask by "*" (policy, policy.jsonc:1:17)
}
