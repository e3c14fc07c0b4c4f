package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit codes, the same for every command.
const (
	exitOK        = 0
	exitDeny      = 1 // decide --exit-code: a call was denied
	exitBadRules  = 2 // a rule file has errors (check), or cannot be read
	exitAsk       = 3 // decide --exit-code: a call asks, none was denied
	exitUsage     = 4 // bad flags or a bad call document
	exitFault     = 5 // regate could not decide: the host must block
	exitFailed    = 6 // conformance: some case failed
	exitNotWithin = 7 // delegate: a request widens its parent, or a child is not proven within it
)

// exitError carries an exit code out of a command's RunE.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// app is what every command shares: the standard streams.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "regate",
		Short:         "regate decides coding-agent tool calls with policy compiled to Rego",
		Long:          "regate compiles permission rules (policy.jsonc, hard-guards.jsonc, agent frontmatter, session approvals)\ninto Rego and decides allow, ask or deny for every tool call with embedded OPA.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
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
		newDiffCmd(a),
		newHookCmd(a),
		newApproveCmd(a),
		newServeCmd(a),
		newInstallCmd(a),
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
