package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/format"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
)

// ExampleResult is one inline example of the policy, decided.
type ExampleResult struct {
	Example  compiler.Example
	Decision Decision
	// Passed is whether the decision is the expected action (and rule,
	// when the example names one).
	Passed bool
}

// CheckExamples decides every inline example of the engine's policy.
func (e *Engine) CheckExamples(ctx context.Context) ([]ExampleResult, error) {
	var out []ExampleResult
	for _, ex := range e.out.Examples {
		d, err := e.Decide(ctx, ExampleCall(ex))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ex.Pos, err)
		}
		passed := d.Action == ex.Expect && (ex.Matched == "" || d.Matched == ex.Matched)
		out = append(out, ExampleResult{Example: ex, Decision: d, Passed: passed})
	}
	return out, nil
}

// ExampleCall is the call an inline example makes, as a host would give it.
func ExampleCall(ex compiler.Example) facts.Call {
	return facts.Call{Tool: ex.Tool, Input: ex.Input, Agent: ex.Agent, Registered: ex.Registered}
}

// ExampleTestsPath is where ExampleTests puts its module.
const ExampleTestsPath = "regate/gen/examples_test.rego"

// ExampleTests renders the policy's inline examples as a generated Rego
// test module: one test_ rule per example, named after its position, that
// evaluates regate.lib.permission.decision with the input document this
// engine builds for the call (bash decomposed, paths resolved) and checks
// the action and, when the example names one, the rule. OPA's tester runs
// it beside the library's own tests; ok is false when there are none.
func (e *Engine) ExampleTests() (compiler.Module, bool, error) {
	if len(e.out.Examples) == 0 {
		return compiler.Module{}, false, nil
	}
	var b strings.Builder
	b.WriteString(compiler.Header + "\n#\n# The inline examples of the policy, as tests.\n\npackage regate.gen.examples_test\n\nimport data.regate.lib.permission\n")
	for _, ex := range e.out.Examples {
		doc, err := e.Input(ExampleCall(ex))
		if err != nil {
			return compiler.Module{}, false, err
		}
		input, err := json.Marshal(doc)
		if err != nil {
			return compiler.Module{}, false, err
		}
		fmt.Fprintf(&b, "\n# %s: %s expects %s\n%s if {\n\td := permission.decision with input as %s\n\td.action == %q\n",
			ex.Pos, ex.Tool, ex.Expect, exampleTestName(ex.Pos), input, ex.Expect)
		if ex.Matched != "" {
			fmt.Fprintf(&b, "\td.matched == %s\n", quote(ex.Matched))
		}
		b.WriteString("}\n")
	}
	text, err := format.Source(ExampleTestsPath, []byte(b.String()))
	if err != nil {
		return compiler.Module{}, false, fmt.Errorf("runtime: format the example tests: %w", err)
	}
	return compiler.Module{Path: ExampleTestsPath, Text: string(text)}, true, nil
}

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9]+`)

// exampleTestName names an example's test after its position, so that a
// failing test points at the example: policy.jsonc:12:5 is
// test_example_policy_jsonc_12_5.
func exampleTestName(p compiler.Pos) string {
	return "test_example_" + strings.Trim(nonIdent.ReplaceAllString(p.String(), "_"), "_")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
