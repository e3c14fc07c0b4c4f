package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
)

func newDelegateCheckCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE…",
		Short: "validate delegation policy files and print every problem with file:line:col",
		Long: `check decodes each delegation policy file and prints every error (syntax, types, unknown
values, bad globs) and every invalid rate or window, which the ceiling would turn into a
refusal of every call. It exits 2 when any file has a problem.`,
		Example: `  regate delegate check planner.jsonc researcher.jsonc`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			problems := 0
			for _, f := range args {
				p, err := readPolicy(f)
				var errs compiler.Errors
				switch {
				case errors.As(err, &errs):
					for _, e := range errs {
						fmt.Fprintln(a.stdout, e)
					}
					problems += len(errs)
					continue
				case err != nil:
					return err
				}
				ps := p.ValueProblems()
				printProblems(a.stdout, ps)
				problems += len(ps)
				for _, name := range p.UnknownFields() {
					pos, _ := p.Pos(name)
					fmt.Fprintf(a.stdout, "%s: warning: %q is not a delegation policy field: it is kept, and no child of this policy can be proven within it\n", pos, name)
				}
			}
			fmt.Fprintln(a.stdout, problemCount(problems))
			if problems > 0 {
				return withCode(exitBadRules, nil)
			}
			return nil
		},
	}
}
