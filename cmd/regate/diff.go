package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regate/regate/internal/testkit/workload"
)

type diffParams struct {
	calls    string
	home     string
	cwd      string
	exitCode bool
}

func newDiffCmd(a *app) *cobra.Command {
	p := &diffParams{}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "list the calls of a corpus whose decision changes between two policy versions",
		Long: `diff compiles two versions of a policy file and decides every call of a JSON Lines corpus
(--calls, - for standard input; the built-in workload when not given) under both, printing each
call whose action or deciding rule changes, one JSON line each, then a count.

Exit codes: 0 compared (with --exit-code: and no decision changed); 1 with --exit-code when a
decision changed, as git diff --exit-code; 2 when either version has an error (it would fail
closed, so every call would "change" for a reason that is not the edit).`,
		Example: `  regate diff policy.jsonc policy.new.jsonc --calls testdata/calls.jsonl
  regate diff --exit-code policy.jsonc policy.new.jsonc   # exit 1: a decision changed`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			calls := workload.Calls(workload.Seed, 1000)
			var err error
			if p.calls != "" {
				if calls, err = readCallsFile(p.calls, a.stdin); err != nil {
					return err
				}
			}
			cwd, err := workingDir(p.cwd)
			if err != nil {
				return err
			}
			var decide [2]func(int) (map[string]string, error)
			for i, path := range args {
				rf := ruleFlags{policy: path, home: p.home}
				out, err := rf.compile(a.stderr)
				if err != nil {
					return err
				}
				if err := refuseBrokenRules(out, "nothing was compared"); err != nil {
					return err
				}
				eng, err := engine(ctx, out, cwd, nil)
				if err != nil {
					return err
				}
				decide[i] = func(k int) (map[string]string, error) {
					d, err := eng.Decide(ctx, calls[k])
					if err != nil {
						return nil, withCode(exitFault, err)
					}
					return map[string]string{"action": string(d.Action), "matched": d.Matched, "pos": d.Pos}, nil
				}
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetEscapeHTML(false)
			changed := 0
			pr := newProgress(a.stderr, "diff: calls")
			defer pr.finish()
			for k := range calls {
				pr.update(k, len(calls))
				before, err := decide[0](k)
				if err != nil {
					return err
				}
				after, err := decide[1](k)
				if err != nil {
					return err
				}
				if before["action"] == after["action"] && before["matched"] == after["matched"] {
					continue
				}
				changed++
				if err := enc.Encode(map[string]any{"call": calls[k], "before": before, "after": after}); err != nil {
					return err
				}
			}
			fmt.Fprintf(a.stdout, "%d of %d calls change\n", changed, len(calls))
			if p.exitCode && changed > 0 {
				return withCode(exitChanged, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&p.calls, "calls", "", "a JSON Lines file of calls, - for standard input (default: the built-in workload)")
	cmd.Flags().StringVar(&p.home, "home", "", "home directory that ~ expands to (default: the current user's)")
	cmd.Flags().BoolVar(&p.exitCode, "exit-code", false, "exit 1 when a decision changed, 0 when none did")
	cmd.Flags().StringVar(&p.cwd, "cwd", "", "the working directory paths resolve against (default: the current one)")
	return cmd
}
