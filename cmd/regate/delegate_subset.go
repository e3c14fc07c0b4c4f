package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler/delegation"
)

func newDelegateSubsetCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "subset CHILD PARENT",
		Short: "prove a child delegation policy within its parent, or print what could not be proven",
		Long: `subset proves the child policy admits no more than the parent. The proof is sound, not
complete: a glob the patterns' shape cannot place (two stars, a character class) is not proven.
Each problem is printed with the position of the child's field; an unproven subset exits 7.`,
		Example: `  regate delegate subset researcher.jsonc planner.jsonc`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			child, err := readPolicy(args[0])
			if err != nil {
				return err
			}
			parent, err := readPolicy(args[1])
			if err != nil {
				return err
			}
			ps := delegation.SubsetProblems(child, parent)
			printProblems(a.stdout, ps)
			if len(ps) > 0 {
				fmt.Fprintf(a.stdout, "%s is not proven within %s: %s\n", args[0], args[1], problemCount(len(ps)))
				return withCode(exitNotWithin, nil)
			}
			fmt.Fprintf(a.stdout, "%s is within %s\n", args[0], args[1])
			return nil
		},
	}
}
