package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// decideLoop decides the calls round after round, reporting allocations.
func decideLoop(b *testing.B, e *runtime.Engine, calls []facts.Call) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := e.Decide(ctx, calls[i%len(calls)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDecide is one whole uncached decision: facts, input, prepared
// query, message.
func BenchmarkDecide(b *testing.B) {
	decideLoop(b, newEngine(b, testPolicy, runtime.WithCacheSize(0)), sampleCalls)
}

// BenchmarkOPAFloor is the cheapest prepared OPA query (allow := true) with a
// parsed input, so that every run reports the floor its decisions sit on.
func BenchmarkOPAFloor(b *testing.B) {
	q := floorQuery(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Eval(ctx, rego.EvalParsedInput(floorInput)); err != nil {
			b.Fatal(err)
		}
	}
}

// floorQuery is the trivial query of the floor, prepared; floorInput its
// input.
func floorQuery(b *testing.B) rego.PreparedEvalQuery {
	b.Helper()
	q, err := rego.New(rego.Query("data.floor.allow"), rego.Module("floor.rego", "package floor\n\nallow := true\n")).PrepareForEval(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return q
}

var floorInput = ast.NewObject(ast.Item(ast.StringTerm("tool"), ast.StringTerm("bash")))

// BenchmarkDecideRuleCount decides the same bash call against bash maps of
// growing size: the cost must grow far slower than the number of rules.
func BenchmarkDecideRuleCount(b *testing.B) {
	for _, n := range []int{33, 1000, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`{"permission": {"*": "ask", "bash": {"*": "ask", "git status": "allow", "npm *": "deny", "*.sh": "ask", "g?t *": "ask"`)
			for i := 0; i < n-4; i++ {
				fmt.Fprintf(&sb, `, "tool%d *": "allow"`, i)
			}
			sb.WriteString("}}}")
			e := newEngine(b, sb.String(), runtime.WithCacheSize(0))
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": "tool7 --flag value"}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				d, err := e.Decide(ctx, call)
				if err != nil || d.Action != "allow" {
					b.Fatalf("%+v %v", d, err)
				}
			}
		})
	}
}

// BenchmarkDecideTrace replays the workload the way an agent session
// repeats itself, with the decision cache on and off.
func BenchmarkDecideTrace(b *testing.B) {
	calls := mixedCalls(b)
	for _, size := range []int{runtime.DefaultCacheSize, 0} {
		b.Run(fmt.Sprintf("cache=%d", size), func(b *testing.B) {
			decideLoop(b, newEngine(b, testPolicy, runtime.WithCacheSize(size)), calls)
		})
	}
}
