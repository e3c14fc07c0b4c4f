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
	// delegation are delegation policy files, profileConfigs profile
	// config.json files: checked on their own, each by its decoder.
	delegation     []string
	profileConfigs []string
}

func newCheckCmd(a *app) *cobra.Command {
	p := &checkParams{}
	cmd := &cobra.Command{
		Use:   "check [FILE…]",
		Short: "validate rule files and print every problem with file:line:col",
		Long: `check validates rule files: policy files, hard-guard files (named hard-guards*.jsonc), agent
Markdown files (*.md) and profile config files (named config.json), given as arguments or with
the same flags as decide, and delegation policy files given with --delegation. It prints every
error and warning as file:line:col, an unknown key with the key it most likely misspells, and
exits 2 when there is an error. Warnings include precedence surprises: an allow or ask that
outranks a deny on values both match (outranked_deny), and rules of different actions that only
key order ranks (order_decides), each with both positions and a call that shows it. docs/policy.md lists every key of every file; the JSON Schemas
in compiler/schema describe the same for editors.`,
		Example: `  regate check policy.jsonc hard-guards.jsonc agents/reviewer.md
  regate check --delegation planner.jsonc ~/.pi/agent/system-prompts/config.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd.Context(), p, args, a.stdout)
		},
	}
	p.rules.bind(cmd)
	cmd.Flags().StringArrayVar(&p.delegation, "delegation", nil, "delegation policy file to check (repeatable)")
	return cmd
}

// count counts the errors and the warnings of ds.
func count(ds compiler.Errors) (errs, warns int) {
	for _, d := range ds {
		if d.Severity == compiler.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
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
		case base == "config.json":
			p.profileConfigs = append(p.profileConfigs, f)
		case strings.HasSuffix(base, ".md"):
			p.rules.agentFiles = append(p.rules.agentFiles, f)
		case strings.HasPrefix(base, "hard-guards"):
			p.rules.hardGuards = f
		default:
			p.rules.policy = f
		}
	}
	var others compiler.Errors
	for _, f := range p.delegation {
		ds, err := checkDelegation(f)
		if err != nil {
			return err
		}
		others = append(others, ds...)
	}
	for _, f := range p.profileConfigs {
		ds, err := checkProfileConfig(f)
		if err != nil {
			return err
		}
		others = append(others, ds...)
	}
	others.Sort()
	printDiagnostics(stdout, others)
	errs, warns := count(others)
	// The permission rules are checked when one was named, or when nothing
	// else was: then the default policy is what check checks.
	if permissionRulesNamed(&p.rules) || len(p.delegation)+len(p.profileConfigs) == 0 {
		e, w, err := checkPermissionRules(ctx, &p.rules, stdout)
		if err != nil {
			return err
		}
		errs, warns = errs+e, warns+w
	}
	fmt.Fprintf(stdout, "%d errors, %d warnings\n", errs, warns)
	if errs > 0 {
		return withCode(exitBadRules, nil)
	}
	return nil
}

func permissionRulesNamed(f *ruleFlags) bool {
	return f.policy != "" || f.hardGuards != "" || len(f.agentFiles) > 0 || len(f.agentDirs) > 0 || f.pi
}

// checkPermissionRules compiles policy.jsonc, hard-guards.jsonc and the
// agent files with the precedence lint, printing every diagnostic, and
// decides the policy's inline examples when it has no error.
func checkPermissionRules(ctx context.Context, rules *ruleFlags, stdout io.Writer) (errs, warns int, err error) {
	out, err := rules.compile(stdout, compiler.WithPrecedenceLint())
	if err != nil {
		return 0, 0, err
	}
	errs, warns = count(out.Diagnostics)
	if errs == 0 {
		failed, err := failedExamples(ctx, out, stdout)
		if err != nil {
			return 0, 0, err
		}
		errs += failed
	}
	return errs, warns, nil
}

// failedExamples decides the policy's inline examples and prints each one
// the policy does not satisfy, positioned at the example; it returns how
// many failed.
func failedExamples(ctx context.Context, out *compiler.Output, w io.Writer) (int, error) {
	if len(out.Examples) == 0 {
		return 0, nil
	}
	eng, err := engine(ctx, out, "/", nil)
	if err != nil {
		return 0, err
	}
	results, err := eng.CheckExamples(ctx)
	if err != nil {
		return 0, withCode(exitFault, err)
	}
	failed := 0
	for _, r := range results {
		if !r.Passed {
			failed++
			fmt.Fprintf(w, "%s: error: the example expects %s%s; the policy decides %s (matched %q at %s) [%s]\n",
				r.Example.Pos, r.Example.Expect, matchedNote(r.Example.Matched), r.Decision.Action, r.Decision.Matched, r.Decision.Pos, codeExampleFailed)
		}
	}
	return failed, nil
}
