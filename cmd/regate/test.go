package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/printable"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/coverage"
)

type testParams struct {
	rules       ruleFlags
	cwd         string
	verbose     bool
	coverage    bool
	coverageMin float64
}

func newTestCmd(a *app) *cobra.Command {
	p := &testParams{}
	cmd := &cobra.Command{
		Use:   "test [PATH…]",
		Short: "run OPA's test runner over the compiled policy, its inline examples and your Rego tests",
		Long: `test compiles the rule files (or the bundled default policy) and runs OPA's own test runner
over the static library as stock OPA runs it with its *_test.rego, the generated modules, one
generated test per inline example of the policy ("examples": [{"call": {…}, "expect": "deny"}],
named after its file:line:col), and the Rego test files and data under PATH (test_ rules that
evaluate data.regate.lib.permission.decision with input as a document from regate facts).

The output is OPA's; the exit code is opa test's: 0 when every test passes, 2 when one fails or
errs. A rule file with an error is exit 2 before any test runs: a policy with an error fails
closed, so the library's own tests passing would say nothing about it.

--coverage also reports which rules the inline examples exercise (regate coverage --examples):
the share of the rules that can decide (dead ones left out) that some example's decision names, and
the rules none does. --coverage-min PERCENT makes a share below it exit 2, as a failing test does.`,
		Example: `  regate test --policy policy.jsonc
  regate test --policy policy.jsonc my_policy_test.rego -v`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTest(cmd.Context(), p, args, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	cmd.Flags().StringVar(&p.cwd, "cwd", "/", "the working directory the examples' paths resolve against")
	cmd.Flags().BoolVarP(&p.verbose, "verbose", "v", false, "print every test, as opa test -v does")
	cmd.Flags().BoolVar(&p.coverage, "coverage", false, "report the rules the inline examples decide with")
	cmd.Flags().Float64Var(&p.coverageMin, "coverage-min", 0, "with --coverage: exit 2 when the examples decide with less than PERCENT of the rules that can decide")
	return cmd
}

func runTest(ctx context.Context, p *testParams, paths []string, stdout, stderr io.Writer) error {
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	if err := refuseBrokenRules(out, "no test ran"); err != nil {
		return err
	}
	eng, err := engine(ctx, out, p.cwd, nil)
	if err != nil {
		return err
	}
	// The library's own tests run as `go test ./rego` runs them, over no
	// data: they set the rules they need with `with`, and the user's rules
	// (hard guards on .env, say) must not leak into them. The generated
	// modules, the policy's examples and the user's tests run over the
	// compiled rules.
	lib, err := regolib.Modules()
	if err != nil {
		return withCode(exitFault, err)
	}
	libTests, err := regolib.TestModules()
	if err != nil {
		return withCode(exitFault, err)
	}
	texts := maps.Clone(lib)
	for _, m := range out.Modules {
		texts[m.Path] = m.Text
	}
	if m, ok, err := eng.ExampleTests(); err != nil {
		return withCode(exitFault, err)
	} else if ok {
		texts[m.Path] = m.Text
	}
	libModules, err := parseModules(lib, libTests)
	if err != nil {
		return withCode(exitFault, err)
	}
	modules, err := parseModules(texts)
	if err != nil {
		return withCode(exitFault, err)
	}
	b, err := out.Bundle()
	if err != nil {
		return withCode(exitFault, err)
	}
	data := b.Data
	if len(paths) > 0 {
		loaded, err := loader.NewFileLoader().WithRegoVersion(ast.RegoV1).All(paths)
		if err != nil {
			return withCode(exitBadRules, err)
		}
		for path, f := range loaded.Modules {
			modules[path] = f.Parsed
		}
		for k, v := range loaded.Documents {
			if k == compiler.BundleRoot {
				return withCode(exitUsage, errors.New("your data may not be under the root regate: it holds the compiled rules"))
			}
			data[k] = v
		}
	}
	var runs []<-chan *tester.Result
	for _, run := range []struct {
		modules map[string]*ast.Module
		data    map[string]any
	}{{libModules, map[string]any{}}, {modules, data}} {
		ch, err := tester.NewRunner().SetStore(inmem.NewFromObject(run.data)).SetModules(run.modules).RunTests(ctx, nil)
		if err != nil {
			return withCode(exitBadRules, err)
		}
		runs = append(runs, ch)
	}
	var results []*tester.Result
	failed := 0
	pr := newProgress(stderr, "test: tests run")
	for _, ch := range runs {
		for r := range ch {
			if r.Fail || r.Error != nil {
				failed++
			}
			results = append(results, r)
			pr.update(len(results), 0)
		}
	}
	pr.finish()
	rch := make(chan *tester.Result, len(results))
	for _, r := range results {
		rch <- r
	}
	close(rch)
	if err := (tester.PrettyReporter{Output: stdout, Verbose: p.verbose}).Report(rch); err != nil {
		return withCode(exitFault, err)
	}
	if failed > 0 {
		return withCode(exitBadRules, nil)
	}
	if p.coverage || p.coverageMin > 0 {
		return exampleCoverage(ctx, eng, out, p.coverageMin, stdout)
	}
	return nil
}

// exampleCoverage decides the policy's inline examples and reports the
// share of the rules that can decide (not dead) that some example's
// decision names, and the rules none does; under min percent it is exit 2.
func exampleCoverage(ctx context.Context, eng *runtime.Engine, out *compiler.Output, min float64, stdout io.Writer) error {
	counter, err := coverage.New(out)
	if err != nil {
		return withCode(exitFault, err)
	}
	calls := make([]facts.Call, len(out.Examples))
	for i, ex := range out.Examples {
		calls[i] = runtime.ExampleCall(ex)
	}
	if err := counter.Decide(ctx, eng, calls); err != nil {
		return withCode(exitFault, err)
	}
	live, used := 0, 0
	var unused []coverage.Rule
	for _, r := range counter.Report().Rules {
		if r.NeverDecides {
			continue
		}
		live++
		if r.Decided > 0 {
			used++
		} else {
			unused = append(unused, r)
		}
	}
	share := 100.0
	if live > 0 {
		share = 100 * float64(used) / float64(live)
	}
	fmt.Fprintf(stdout, "coverage: the %d inline examples decide with %d of the %d rules that can decide (%.1f%%)\n", len(out.Examples), used, live, share)
	for _, r := range unused {
		fmt.Fprintf(stdout, "  no example: %s %s %q (%s)\n", printable.String(r.Pos), r.Surface, printable.String(r.Pattern), r.Action)
	}
	if share < min {
		return withCode(exitBadRules, fmt.Errorf("example coverage %.1f%% is under --coverage-min %.1f%%", share, min))
	}
	return nil
}

// parseModules parses the Rego texts of every set, keyed by path.
func parseModules(sets ...map[string]string) (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	for _, texts := range sets {
		for path, text := range texts {
			parsed, err := ast.ParseModuleWithOpts(path, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			if err != nil {
				return nil, err
			}
			modules[path] = parsed
		}
	}
	return modules, nil
}
