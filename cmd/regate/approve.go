package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

type approveParams struct {
	rules   ruleFlags
	state   stateFlags
	session string
	list    bool
}

func newApproveCmd(a *app) *cobra.Command {
	p := &approveParams{}
	cmd := &cobra.Command{
		Use:   "approve --session ID SURFACE PATTERN",
		Short: "approve a pattern for the rest of a hook session",
		Long: `approve records a session approval in the state folder, where every later regate hook call of
that session (the host's session_id) reads it: a call matching PATTERN on SURFACE (bash, path,
mcp, skill or a tool's name) is allowed by the session layer, after the hard guards and before
every other rule. Approvals belong to the rule files they were given under: after an edit to the
rules they no longer apply. --list prints the session's approvals.`,
		Example: `  regate approve --session 3f2a… bash 'make deploy'
  regate approve --session 3f2a… --list`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case p.session == "":
				return withCode(exitUsage, fmt.Errorf("--session is required: the host's session id"))
			case p.list && len(args) != 0:
				return withCode(exitUsage, fmt.Errorf("--list takes no arguments"))
			case !p.list && (len(args) != 2 || strings.TrimSpace(args[0]) == "" || args[1] == ""):
				return withCode(exitUsage, fmt.Errorf("approve takes a surface and a pattern"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			state, err := p.state.required()
			if err != nil {
				return err
			}
			out, err := p.rules.compileIn(a.stderr, state)
			if err != nil {
				return err
			}
			if p.list {
				approvals, err := state.Approvals(out.Hash, p.session)
				if err != nil {
					return withCode(exitFault, err)
				}
				for _, ap := range approvals {
					fmt.Fprintf(a.stdout, "%s\t%s\n", ap.Surface, ap.Pattern)
				}
				return nil
			}
			ap := compiler.Approval{Surface: strings.TrimSpace(args[0]), Pattern: args[1]}
			// The pattern must compile as the session layer will compile it.
			if _, err := compiler.CompileApprovals([]compiler.Approval{ap}, out.Home); err != nil {
				return withCode(exitUsage, err)
			}
			if err := state.Approve(out.Hash, p.session, ap); err != nil {
				return withCode(exitFault, err)
			}
			fmt.Fprintf(a.stdout, "approved %s %q for session %s (policy %.12s)\n", ap.Surface, ap.Pattern, p.session, out.Hash)
			return nil
		},
	}
	cmd.Flags().StringVar(&p.session, "session", "", "the host's session id (Claude Code, Codex and Gemini CLI send it as session_id)")
	cmd.Flags().BoolVar(&p.list, "list", false, "print the session's approvals")
	p.rules.bind(cmd)
	p.state.bind(cmd)
	return cmd
}

// approveFlags gives eng's session the approvals of --approve flags
// (decide, facts), each SURFACE=PATTERN: the surface and pattern
// `regate approve` takes as two arguments.
func approveFlags(eng *runtime.Engine, flags []string) error {
	for _, s := range flags {
		surface, pattern, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(surface) == "" {
			return withCode(exitUsage, fmt.Errorf("--approve %q: want SURFACE=PATTERN", s))
		}
		if err := eng.Session().Approve(compiler.Approval{Surface: strings.TrimSpace(surface), Pattern: pattern}); err != nil {
			return withCode(exitUsage, err)
		}
	}
	return nil
}
