package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regate/regate/cmd/regate/internal/statedir"
)

type factsParams struct {
	rules      ruleFlags
	state      stateFlags
	tool       string
	input      string
	call       string
	calls      string
	cwd        string
	envelope   bool
	registered []string
	approvals  []string
	session    string
}

func newFactsCmd(a *app) *cobra.Command {
	p := &factsParams{}
	cmd := &cobra.Command{
		Use:   "facts",
		Short: "print the input document of tool calls, for a stock OPA server running regate's bundle",
		Long: `facts prints, one JSON line per call, the complete input document regate decides on: the tool,
every check (bash units and path tokens with their spelling groups, origins, wrappers), the
session's approvals and the agent. Bash decomposition and path resolution happen here, in Go, so
a host that asks a stock OPA server running regate's bundle (regate bundle) sends this document:

  POST /v1/data/regate/lib/permission/decision   {"input": <document>}

The document's "session" member carries the session's approvals, as the embedded runtime uses
them: --approve SURFACE=PATTERN adds one (as for decide), and --session ID reads those that
regate approve recorded for the hook session ID in the state folder under the policy the flags
name (the rule files are then compiled through the state folder, as the hook does).
Without either, the session has no approvals.

--envelope prints {"input": <document>}, ready to post. Calls are given as for decide.`,
		Example: `  regate facts --tool bash --input '{"command":"git status && rm -rf build"}' --envelope |
    curl -s -d @- localhost:8181/v1/data/regate/lib/permission/decision
  regate facts --approve 'bash=make deploy' --tool bash --input '{"command":"make deploy"}'
  regate facts --session 3f2a… --tool bash --input '{"command":"make deploy"}'`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			dp := decideParams{tool: p.tool, call: p.call, calls: p.calls}
			if err := dp.oneCallSource(); err != nil {
				return err
			}
			if p.session != "" && p.state.off {
				return withCode(exitUsage, errors.New("--session reads the approvals in the state folder, which --no-state turns off"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			dp := &decideParams{tool: p.tool, input: p.input, call: p.call, calls: p.calls, registered: p.registered}
			calls, err := dp.readCalls(a.stdin)
			if err != nil {
				return err
			}
			p.rules.cwd = p.cwd
			// A session's approvals belong to the policy as the state folder
			// compiled it: compile through it, as the hook does.
			var state *statedir.Dir
			if p.session != "" {
				state = p.state.open(a.stderr)
			}
			out, err := p.rules.compileIn(a.stderr, state)
			if err != nil {
				return err
			}
			cwd, err := workingDir(p.cwd)
			if err != nil {
				return err
			}
			eng, err := engine(cmd.Context(), out, cwd, nil)
			if err != nil {
				return err
			}
			if state != nil {
				policy, err := p.rules.policyID()
				if err != nil {
					return err
				}
				useRecordedApprovals(eng, state, policy, p.session, a.stderr)
			}
			if err := approveFlags(eng, p.approvals); err != nil {
				return err
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetEscapeHTML(false)
			for _, c := range calls {
				doc, err := eng.Input(c)
				if err != nil {
					return withCode(exitFault, fmt.Errorf("%s: %w", callSummary(c), err))
				}
				var v any = doc
				if p.envelope {
					v = map[string]any{"input": doc}
				}
				if err := enc.Encode(v); err != nil {
					return err
				}
			}
			return nil
		},
	}
	p.rules.bind(cmd)
	p.state.bind(cmd)
	f := cmd.Flags()
	f.StringVar(&p.tool, "tool", "", "the tool of a single call")
	f.StringVar(&p.input, "input", "{}", "the tool's input, a JSON object")
	f.StringVar(&p.call, "call", "", "a single call as JSON")
	f.StringVar(&p.calls, "calls", "", "a JSON Lines file of calls, - for standard input")
	f.StringVar(&p.cwd, "cwd", "", "the working directory paths resolve against (default: the current one)")
	f.StringSliceVar(&p.registered, "registered", nil, "the tools registered in the session (default: every tool)")
	f.StringArrayVar(&p.approvals, "approve", nil, "a session approval SURFACE=PATTERN (repeatable)")
	f.StringVar(&p.session, "session", "", "a hook session id: include the approvals regate approve recorded for it")
	f.BoolVar(&p.envelope, "envelope", false, `print {"input": …}, the body of a Data API request`)
	return cmd
}
