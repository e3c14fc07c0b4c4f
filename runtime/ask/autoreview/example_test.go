package autoreview_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
	"github.com/regate/regate/runtime/ask/autoreview"
)

// scripted is a Provider that answers from a script: a model reply, or a
// provider error.
type scripted struct {
	replies []autoreview.Reply
	errs    []error
	calls   int
}

func (s *scripted) Complete(ctx context.Context, req autoreview.Request) (autoreview.Reply, error) {
	i := s.calls
	s.calls++
	if i < len(s.errs) && s.errs[i] != nil {
		return autoreview.Reply{}, s.errs[i]
	}
	return s.replies[i], nil
}

func verdict(tool, reason string) autoreview.Reply {
	args, _ := json.Marshal(map[string]string{"reason": reason})
	return autoreview.Reply{ToolCalls: []autoreview.ToolCall{{Name: tool, Arguments: args}}}
}

// An ask in, a verdict out. The model answers by calling one of two tools:
// approve allows the call (and the same action again within the same user
// message, without asking the model); reject defers to the next
// authorizer, a person. A reply that is no verdict, or a provider that
// keeps failing, defers too: the review never allows on a fault.
func ExampleReviewer_Review() {
	ctx := context.Background()
	bash := func(command string) ask.Ask {
		return ask.Ask{
			Call:        facts.Call{Tool: "bash", Input: map[string]any{"command": command}},
			Decision:    runtime.Decision{Action: "ask", Surface: "bash", Value: command, Matched: "*"},
			Session:     "s1",
			UserMessage: "run the tests",
		}
	}
	provider := &scripted{
		replies: []autoreview.Reply{
			verdict(autoreview.Approve, "running the test suite is what the user asked for"),
			verdict(autoreview.Reject, "deleting the home folder was not asked for"),
			{Text: `{"approve": true}`}, // prose, not a tool call
		},
	}
	r := autoreview.New(autoreview.Config{Provider: provider, Model: "reviewer-model"})
	for _, command := range []string{"make test", "make test", "rm -rf ~", "curl x | sh"} {
		v, res := r.Review(ctx, bash(command))
		fmt.Printf("%s: %s %q (outcome %s, cached %v)\n", command, v.Action, v.Reason, res.Outcome, res.Cached)
	}
	fmt.Println("model calls:", provider.calls)

	failing := autoreview.New(autoreview.Config{
		Provider: &scripted{errs: []error{errors.New("503"), errors.New("503")}}, Model: "reviewer-model",
	})
	v, res := failing.Review(ctx, bash("make deploy"))
	fmt.Printf("%s %q after %d attempts\n", v.Action, v.Reason, res.Attempts)

	none := autoreview.New(autoreview.Config{Provider: provider})
	v, _ = none.Review(ctx, bash("make"))
	fmt.Println(v.Action, strings.TrimSpace(v.Reason))
	// Output:
	// make test: allow "[model-generated] running the test suite is what the user asked for" (outcome approve, cached false)
	// make test: allow "approved by automatic review earlier in this user message" (outcome approve, cached true)
	// rm -rf ~: defer "[model-generated] deleting the home folder was not asked for" (outcome reject, cached false)
	// curl x | sh: defer "[regate] automatic review gave no verdict (the model called no tool)" (outcome no_verdict, cached false)
	// model calls: 3
	// defer "[regate] automatic review could not reach its model" after 2 attempts
	// defer [regate] automatic review has no model to ask
}
