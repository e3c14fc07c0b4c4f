package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newProfileResolveCmd(a *app) *cobra.Command {
	p := &profileParams{}
	cmd := &cobra.Command{
		Use:   "resolve",
		Short: "print the profile that applies to a model, and why",
		Long: `resolve prints the applied profile (or none), the mode and where the selection came from,
the binding that applied with its scope, specificity and priority, a conflict, the layers most
specific first, and every diagnostic with its position.`,
		Example: `  regate profile resolve --global ~/.pi/agent/system-prompts --project .pi/system-prompts --trusted \
    --provider anthropic --model claude-sonnet-4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, _, d, err := p.resolve(cmd.Context())
			if err != nil {
				return err
			}
			w := a.stdout
			fmt.Fprintf(w, "profile      %s\n", orNone(d.Profile))
			fmt.Fprintf(w, "mode         %s (selection from %s)\n", d.Mode, d.SelectionFrom)
			if d.Binding != "" {
				scope, _, _ := strings.Cut(d.Binding, ":")
				fmt.Fprintf(w, "binding      %s (scope %s, specificity %d, priority %g)\n", d.Binding, scope, d.Specificity, d.Priority)
			}
			if d.Conflict != "" {
				fmt.Fprintf(w, "conflict     %s: tied bindings name different profiles, so none of that scope applies\n", d.Conflict)
			}
			fmt.Fprintf(w, "layers       %s\n", orNone(strings.Join(d.Layers, ", ")))
			printProfileDiagnostics(w, out, d)
			return nil
		},
	}
	p.bind(cmd)
	return cmd
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
