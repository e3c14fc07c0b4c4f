package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	regolib "github.com/regate/regate/rego"
)

type compileParams struct {
	rules  ruleFlags
	outDir string
}

func newCompileCmd(a *app) *cobra.Command {
	p := &compileParams{}
	cmd := &cobra.Command{
		Use:   "compile",
		Short: "write the generated Rego, its data and the static library to a folder",
		Long: `compile compiles the rule files and writes every generated module (regate/gen/*.rego), the
compiled rules as data (regate/rules/*/data.json) and the static library (regate/lib/…) under
--out, so that the folder is a complete policy for opa eval, opa test, opa check or a bundle.
Diagnostics go to standard error. A rule file with an error is still written, as regate runs it
(failing closed where the error is), and the exit code is 2.`,
		Example: `  regate compile --policy policy.jsonc --out build/
  opa eval -d build/ -i input.json 'data.regate.lib.permission.decision'`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if p.outDir == "" {
				return withCode(exitUsage, errors.New("--out is required"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompile(cmd.Context(), p, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	cmd.Flags().StringVarP(&p.outDir, "out", "o", "", "folder to write the Rego into")
	return cmd
}

func runCompile(_ context.Context, p *compileParams, stdout, stderr io.Writer) error {
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	lib, err := regolib.Modules()
	if err != nil {
		return withCode(exitFault, err)
	}
	files := map[string]string{}
	for path, text := range lib {
		files[path] = text
	}
	for _, m := range out.Modules {
		files[m.Path] = m.Text
	}
	data, err := out.DataFiles()
	if err != nil {
		return withCode(exitFault, err)
	}
	for _, f := range data {
		files[f.Path] = f.Text
	}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		dst := filepath.Join(p.outDir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return withCode(exitFault, err)
		}
		if err := os.WriteFile(dst, []byte(files[path]), 0o644); err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintln(stdout, dst)
	}
	return refuseBrokenRules(out, "the folder is written as regate would run it, but is not one to ship")
}
