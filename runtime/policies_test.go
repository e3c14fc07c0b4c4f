package runtime_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestBundledPolicyExamples: every bundled policy compiles without a
// diagnostic and decides each of its inline examples as it says (as regate
// check does, from /).
func TestBundledPolicyExamples(t *testing.T) {
	names, _ := fs.Glob(policies.FS, "*.jsonc")
	for _, name := range names {
		src, _ := fs.ReadFile(policies.FS, name)
		in := compiler.Input{Policy: &compiler.Source{Name: name, Data: src}}
		if name == "hard-guards.jsonc" {
			in = compiler.Input{HardGuards: &compiler.Source{Name: name, Data: src}}
		}
		out, err := compiler.Compile(in, compiler.WithHome("/home/u"))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range out.Diagnostics {
			t.Errorf("%s: %v", name, d)
		}
		{
			e, err := runtime.New(context.Background(), out, runtime.WithCwd("/"), runtime.WithFS(facts.MapFS{}))
			if err != nil {
				t.Fatal(err)
			}
			results, err := e.CheckExamples(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if !r.Passed {
					t.Errorf("%s: %s %v expects %s (matched %q), got %+v",
						name, r.Example.Tool, r.Example.Input, r.Example.Expect, r.Example.Matched, r.Decision)
				}
			}
		}
	}
}
