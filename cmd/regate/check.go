package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
)

type checkParams struct {
	rules ruleFlags
}

func newCheckCmd(a *app) *cobra.Command {
	p := &checkParams{}
	cmd := &cobra.Command{
		Use:   "check [FILE…]",
		Short: "validate rule files and print every problem with file:line:col",
		Long: `check validates rule files: policy files, hard-guard files (named hard-guards*.jsonc) and
agent Markdown files (*.md), given as arguments or with the same flags as decide. It prints
every error and warning as file:line:col and exits 2 when there is an error.`,
		Example: `  regate check policy.jsonc hard-guards.jsonc agents/reviewer.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd.Context(), p, args, a.stdout)
		},
	}
	p.rules.bind(cmd)
	return cmd
}

// codeExampleFailed marks an inline example the policy does not satisfy.
const codeExampleFailed = "example_failed"

func matchedNote(m string) string {
	if m == "" {
		return ""
	}
	return fmt.Sprintf(" by %q", m)
}

func runCheck(ctx context.Context, p *checkParams, args []string, stdout io.Writer) error {
	for _, f := range args {
		base := filepath.Base(f)
		switch {
		case strings.HasSuffix(base, ".md"):
			p.rules.agentFiles = append(p.rules.agentFiles, f)
		case strings.HasPrefix(base, "hard-guards"):
			p.rules.hardGuards = f
		default:
			p.rules.policy = f
		}
	}
	out, err := p.rules.compile(stdout)
	if err != nil {
		return err
	}
	errs, warns := 0, 0
	for _, d := range out.Diagnostics {
		if d.Severity == compiler.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	if len(out.Examples) > 0 && errs == 0 {
		eng, err := engine(ctx, out, "/", nil)
		if err != nil {
			return err
		}
		results, err := eng.CheckExamples(ctx)
		if err != nil {
			return withCode(exitFault, err)
		}
		for _, r := range results {
			if !r.Passed {
				errs++
				fmt.Fprintf(stdout, "%s: error: the example expects %s%s; the policy decides %s (matched %q at %s) [%s]\n",
					r.Example.Pos, r.Example.Expect, matchedNote(r.Example.Matched), r.Decision.Action, r.Decision.Matched, r.Decision.Pos, codeExampleFailed)
			}
		}
	}
	fmt.Fprintf(stdout, "%d errors, %d warnings\n", errs, warns)
	if errs > 0 {
		return withCode(exitBadRules, nil)
	}
	return nil
}
