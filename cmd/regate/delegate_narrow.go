package main

import (
	"encoding/json"
	"errors"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler/delegation"
)

func newDelegateNarrowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "narrow PARENT REQUEST",
		Short: "print the parent policy narrowed by a request, or what in the request widens it",
		Long: `narrow reads a parent delegation policy and a request (JSONC: any of allowed_tools,
denied_tools, rate_limits, amplification_budget) and prints the narrowed policy as JSON, its
effective values in full. A request that would widen the parent prints each problem and
exits 7.`,
		Example: `  regate delegate narrow planner.jsonc researcher-request.jsonc > researcher.json`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			parent, err := readPolicy(args[0])
			if err != nil {
				return err
			}
			b, err := readDelegationFile(args[1])
			if err != nil {
				return err
			}
			req, err := delegation.DecodeRequest(args[1], b)
			if err != nil {
				return withCode(exitBadRules, err)
			}
			child, err := parent.Narrow(req)
			var widens *delegation.WidensError
			if errors.As(err, &widens) {
				printProblems(a.stdout, widens.Problems)
				return withCode(exitNotWithin, nil)
			}
			if err != nil {
				return err
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(child)
		},
	}
}
