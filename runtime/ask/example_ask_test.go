package ask_test

import (
	"context"
	"fmt"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
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
	person := ask.PrompterFunc(func(_ context.Context, _ ask.Ask, p ask.Prompt) (ask.Answer, error) {
		for _, l := range p.Lines {
			if l.Fact {
				fmt.Printf("  %s: %s\n", l.Key, l.Value)
			}
		}
		return ask.Answer{Choice: ask.ApproveSession}, nil
	})
	chain := ask.PolicyChain(e, ask.NewInteractive(e, person), nil)
	chain.Register("typo-judge", ask.AuthorizerFunc(func(_ context.Context, a ask.Ask) (ask.Verdict, error) {
		if a.Decision.Value == "gti status" {
			return ask.Verdict{Action: "deny", Reason: "did you mean git status?"}, nil
		}
		return ask.Verdict{Action: "defer"}, nil
	}))
	for _, cmd := range []string{"gti status", "make test", "make test"} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
		d, err := e.Decide(ctx, call)
		if err != nil {
			panic(err) // a fault: the host blocks the call
		}
		v := chain.Resolve(ctx, ask.New(e, call, d))
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
