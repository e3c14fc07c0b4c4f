package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// app is what every command shares: the standard streams.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "regate",
		Short:         "regate decides coding-agent tool calls with policy compiled to Rego",
		Long:          "regate compiles permission rules (policy.jsonc, hard-guards.jsonc, agent frontmatter, session approvals)\ninto Rego and decides allow, ask or deny for every tool call with embedded OPA.\n\n" + exitCodesHelp,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetVersionTemplate("regate {{.Version}}\n")
	root.AddCommand(
		newDecideCmd(a),
		newCompileCmd(a),
		newCheckCmd(a),
		newConformanceCmd(a),
		newBenchCmd(a),
		newDelegateCmd(a),
		newProfileCmd(a),
		newFactsCmd(a),
		newBundleCmd(a),
		newTestCmd(a),
		newExportCmd(a),
		newCoverageCmd(a),
		newSuggestCmd(a),
		newDiffCmd(a),
		newHookCmd(a),
		newApproveCmd(a),
		newServeCmd(a),
		newInstallCmd(a),
		newInitCmd(a),
	)
	return root
}

// Main runs the CLI and returns the process exit code. Errors are printed
// once, here.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "regate: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "regate: %v\n", err)
	return exitUsage
}
