package runtime_test

import (
	"context"
	"fmt"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// The ask path: a policy ask goes through the links authorizerChain names
// to the terminal, here a person who approves it for the session.
func Example_askPath() {
	src := `{
  "permission": {"*": "allow", "bash": {"*": "ask", "git status": "allow"}},
  "authorizerChain": ["typo-judge"]
}`
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(src)}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	e, err := runtime.New(ctx, out, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		panic(err)
	}
	person := runtime.PrompterFunc(func(_ context.Context, _ runtime.Ask, p runtime.Prompt) (runtime.Answer, error) {
		for _, l := range p.Lines {
			if l.Fact {
				fmt.Printf("  %s: %s\n", l.Key, l.Value)
			}
		}
		return runtime.Answer{Choice: runtime.ApproveSession}, nil
	})
	chain := e.Chain(e.NewInteractive(person), nil)
	chain.Register("typo-judge", runtime.AuthorizerFunc(func(_ context.Context, a runtime.Ask) (runtime.Verdict, error) {
		if a.Decision.Value == "gti status" {
			return runtime.Verdict{Action: "deny", Reason: "did you mean git status?"}, nil
		}
		return runtime.Verdict{Action: "defer"}, nil
	}))
	for _, cmd := range []string{"gti status", "make test", "make test"} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
		d, err := e.Decide(ctx, call)
		if err != nil {
			panic(err) // a fault: the host blocks the call
		}
		v := chain.Resolve(ctx, e.Ask(call, d))
		fmt.Printf("%s: %s by %s (%s)\n", cmd, v.Action, v.By, v.Reason)
	}
	// Output:
	// gti status: deny by typo-judge (did you mean git status?)
	//   agent: main
	//   tool: bash
	//   rule: *
	//   command: make test
	// make test: allow by terminal (approved for this session by the user)
	// make test: allow by policy ()
}
