package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
)

type exportParams struct {
	rules  ruleFlags
	format string
}

func newExportCmd(a *app) *cobra.Command {
	p := &exportParams{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "write every compiled rule for auditors: JSON, CSV or Markdown",
		Long: `export compiles the rule files and writes every rule with its layer, surface, pattern as
written, action, reason, specificity rank and source file:line:col, and the analysis: rules that
can never decide (a hard guard or a more specific rule of their surface covers every value they
match), keys written twice (the later value won) and precedence surprises (an allow or ask that
outranks a deny, rules only key order ranks), also printed to stderr as check prints them. A rule file with an error exits 2 and
exports nothing: its rules are not the ones that decide (it fails closed).`,
		Example: `  regate export --policy policy.jsonc --hard-guards hard-guards.jsonc --format md > rules.md`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, err := p.rules.compile(a.stderr, compiler.WithPrecedenceLint())
			if err != nil {
				return err
			}
			if err := refuseBrokenRules(out, "nothing was exported"); err != nil {
				return err
			}
			audit, err := out.Export()
			if err != nil {
				return withCode(exitFault, err)
			}
			switch p.format {
			case "json":
				return audit.WriteJSON(a.stdout)
			case "csv":
				return audit.WriteCSV(a.stdout)
			case "md", "markdown":
				return audit.WriteMarkdown(a.stdout)
			}
			return withCode(exitUsage, fmt.Errorf("--format is %q; use json, csv or md", p.format))
		},
	}
	p.rules.bind(cmd)
	cmd.Flags().StringVarP(&p.format, "format", "f", "md", "json, csv or md")
	return cmd
}
