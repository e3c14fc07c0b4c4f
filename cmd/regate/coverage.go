package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/coverage"
)

type coverageParams struct {
	rules    ruleFlags
	log      string
	calls    string
	examples bool
	cwd      string
	format   string
}

func newCoverageCmd(a *app) *cobra.Command {
	p := &coverageParams{}
	cmd := &cobra.Command{
		Use:   "coverage",
		Short: "which rules decide calls: from a decision log, a calls file or the policy's examples",
		Long: `coverage compiles the rule files and counts, for each rule in file order, the calls it decided,
the calls it matched that a more specific rule of its layer and surface decided (shadowed), and
whether it can decide at all (dead: the compiler finds a hard guard or a more specific rule covering
every value it matches). The decisions come from a decision log (--log, as regate writes it with
--decision-log or serve), from calls decided here (--calls, JSON Lines as for decide) or from the
policy's own inline examples (--examples). Decisions no written rule made (the built-in fallback,
an unregistered tool, a fault) are counted apart.

--format table (default), json, or html: a self-contained page with the rules coloured by use, each
linked to its line in the policy's source, which the page shows. A log line that is not a decision
is an error naming its file and line.`,
		Example: `  regate coverage --policy policy.jsonc --log ~/.local/state/regate/decisions.jsonl
  regate coverage --policy policy.jsonc --calls calls.jsonl --format html > coverage.html
  regate coverage --policy policy.jsonc --examples --format json`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			n := 0
			for _, set := range []bool{p.log != "", p.calls != "", p.examples} {
				if set {
					n++
				}
			}
			if n != 1 {
				return withCode(exitUsage, fmt.Errorf("give exactly one of --log, --calls or --examples"))
			}
			switch p.format {
			case "table", "json", "html":
				return nil
			}
			return withCode(exitUsage, fmt.Errorf("--format is %q; use table, json or html", p.format))
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCoverage(cmd.Context(), p, a.stdin, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&p.log, "log", "", "a decision log (decisions.jsonl), - for standard input")
	fl.StringVar(&p.calls, "calls", "", "a JSON Lines file of calls to decide, - for standard input")
	fl.BoolVar(&p.examples, "examples", false, "decide the policy's inline examples")
	fl.StringVar(&p.cwd, "cwd", "", "the working directory calls and examples are decided in (default: the current one)")
	fl.StringVarP(&p.format, "format", "f", "table", "table, json or html")
	return cmd
}

func runCoverage(ctx context.Context, p *coverageParams, stdin io.Reader, stdout, stderr io.Writer) error {
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	if err := refuseBrokenRules(out, "no coverage was counted"); err != nil {
		return err
	}
	counter, err := coverage.New(out)
	if err != nil {
		return withCode(exitFault, err)
	}
	switch {
	case p.log != "":
		r := stdin
		if p.log != "-" {
			f, err := os.Open(p.log)
			if err != nil {
				return withCode(exitUsage, err)
			}
			defer f.Close()
			r = f
		}
		if err := coverage.ReadLog(r, p.log, counter.Add); err != nil {
			return withCode(exitUsage, err)
		}
	default:
		cwd, err := workingDir(p.cwd)
		if err != nil {
			return err
		}
		eng, err := engine(ctx, out, cwd, nil)
		if err != nil {
			return err
		}
		var calls []facts.Call
		if p.examples {
			for _, ex := range out.Examples {
				calls = append(calls, runtime.ExampleCall(ex))
			}
		} else if calls, err = readCallsFile(p.calls, stdin); err != nil {
			return withCode(exitUsage, err)
		}
		if err := counter.Decide(ctx, eng, calls); err != nil {
			return withCode(exitFault, err)
		}
	}
	rep := counter.Report()
	switch p.format {
	case "json":
		return rep.WriteJSON(stdout)
	case "html":
		in, err := p.rules.input()
		if err != nil {
			return err
		}
		return rep.WriteHTML(stdout, coverageSources(in))
	}
	return rep.WriteTable(stdout)
}

// coverageSources are the rule files the HTML page shows, under the names
// the rules' positions use.
func coverageSources(in compiler.Input) []coverage.Source {
	var out []coverage.Source
	for _, s := range append([]*compiler.Source{in.Policy, in.HardGuards}, sourcePtrs(in.Agents)...) {
		if s != nil {
			out = append(out, coverage.Source{Name: s.Name, Data: s.Data})
		}
	}
	return out
}

func sourcePtrs(ss []compiler.Source) []*compiler.Source {
	out := make([]*compiler.Source, len(ss))
	for i := range ss {
		out[i] = &ss[i]
	}
	return out
}
