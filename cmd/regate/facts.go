package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

type factsParams struct {
	rules      ruleFlags
	tool       string
	input      string
	call       string
	calls      string
	cwd        string
	envelope   bool
	registered []string
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

--envelope prints {"input": <document>}, ready to post. Calls are given as for decide.`,
		Example: `  regate facts --tool bash --input '{"command":"git status && rm -rf build"}' --envelope |
    curl -s -d @- localhost:8181/v1/data/regate/lib/permission/decision`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dp := &decideParams{tool: p.tool, input: p.input, call: p.call, calls: p.calls, registered: p.registered}
			calls, err := dp.readCalls(a.stdin)
			if err != nil {
				return err
			}
			p.rules.cwd = p.cwd
			out, err := p.rules.compile(a.stderr)
			if err != nil {
				return err
			}
			cwd := p.cwd
			if cwd == "" {
				if cwd, err = os.Getwd(); err != nil {
					return withCode(exitFault, err)
				}
			}
			eng, err := engine(cmd.Context(), out, cwd, nil)
			if err != nil {
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
	f := cmd.Flags()
	f.StringVar(&p.tool, "tool", "", "the tool of a single call")
	f.StringVar(&p.input, "input", "{}", "the tool's input, a JSON object")
	f.StringVar(&p.call, "call", "", "a single call as JSON")
	f.StringVar(&p.calls, "calls", "", "a JSON Lines file of calls, - for standard input")
	f.StringVar(&p.cwd, "cwd", "", "the working directory paths resolve against (default: the current one)")
	f.StringSliceVar(&p.registered, "registered", nil, "the tools registered in the session (default: every tool)")
	f.BoolVar(&p.envelope, "envelope", false, `print {"input": …}, the body of a Data API request`)
	return cmd
}
