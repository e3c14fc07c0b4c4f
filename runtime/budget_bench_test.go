package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// overBudgetCommands are issue 20's 200 KB commands, each of one shape that
// made a decision cost hundreds of megabytes (or never finish) before the
// work budget; every one now asks.
var overBudgetCommands = []struct{ name, cmd string }{
	{"words", "ls " + strings.Repeat("a ", 100_000)},
	{"paths", "cat " + strings.Repeat("./a/b ", 34_000)},
	{"dotdot", "cat " + strings.Repeat("a/../b ", 29_000)},
	{"longpath", "cat " + strings.Repeat("a/", 100_000)},
	{"semicolons", strings.Repeat("ls a; ", 34_000)},
	{"braces", "echo " + strings.Repeat("{a,b}", 40_000)},
	{"substitutions", "echo " + strings.Repeat("$(ls a) ", 25_000)},
	{"globs", "ls " + strings.Repeat("*/ ", 68_000)},
	{"redirects", "ls " + strings.Repeat(">a ", 68_000)},
	{"tildes", "cat " + strings.Repeat("~/a ", 51_000)},
	{"wrappers", strings.Repeat("sudo ", 40_000) + "ls"},
	{"cds", strings.Repeat("cd a; ", 34_000) + "ls"},
	{"assignments", strings.Repeat("a=b ", 51_000) + "ls"},
}

// BenchmarkOverBudget decides each of overBudgetCommands under the
// bundled default policy, uncached: bytes and time per decision.
//
//	go test -run '^$' -bench OverBudget -benchtime 3x -benchmem ./runtime/
func BenchmarkOverBudget(b *testing.B) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		b.Fatal(err)
	}
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}), runtime.WithCacheSize(0))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range overBudgetCommands {
		b.Run(c.name, func(b *testing.B) {
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			b.ReportAllocs()
			for b.Loop() {
				d, err := e.Decide(context.Background(), call)
				if err != nil {
					b.Fatal(err)
				}
				if d.Action == "allow" && c.name != "assignments" {
					b.Fatalf("%s: allowed", c.name)
				}
			}
		})
	}
}
