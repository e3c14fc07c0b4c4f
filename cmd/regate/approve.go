package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

type approveParams struct {
	rules   ruleFlags
	state   stateFlags
	session string
	list    bool
	clear   bool
	wide    bool
}

func newApproveCmd(a *app) *cobra.Command {
	p := &approveParams{}
	cmd := &cobra.Command{
		Use:   "approve --session ID SURFACE PATTERN",
		Short: "approve a pattern for the rest of a hook session",
		Long: `approve records a session approval in the state folder, where every later regate hook call of
that session (the host's session_id) reads it: a call matching PATTERN on SURFACE (bash, path,
mcp, skill or a tool's name) is allowed by the session layer, after the hard guards and before
every other rule, and the agent's message says a session approval let it through.

An approval is filed under the session and the policy: the policy file's absolute path (links
resolved), so that an edit of the file keeps it and a relative or absolute spelling of the same
file finds it; or the bundled default policy when there is no --policy. Every hook call records
the policy it decided the session under, so without --policy approve files the approval under
the policy the session's hook uses, and with a --policy that hook never used it refuses (the
approval would never apply). It prints the policy it filed the approval under.

A PATTERN with * or ? approves every call it matches, not the one that was asked: approve
refuses it unless --wide says that is meant. --list prints the session's approvals; --clear
removes them. Hard guards deny whatever a session approved.`,
		Example: `  regate approve --session 3f2a… bash 'make deploy'
  regate approve --session 3f2a… --policy ~/.config/regate/policy.jsonc bash 'make deploy'
  regate approve --session 3f2a… --wide bash 'make *'
  regate approve --session 3f2a… --list`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case p.session == "":
				return withCode(exitUsage, errors.New("--session is required: the host's session id"))
			case p.list && p.clear:
				return withCode(exitUsage, errors.New("give --list or --clear, not both"))
			case (p.list || p.clear) && len(args) != 0:
				return withCode(exitUsage, errors.New("--list and --clear take no arguments"))
			case !p.list && !p.clear && (len(args) != 2 || strings.TrimSpace(args[0]) == "" || args[1] == ""):
				return withCode(exitUsage, errors.New("approve takes a surface and a pattern"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApprove(p, args, a.stdout, a.stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&p.session, "session", "", "the host's session id (Claude Code, Codex and Gemini CLI send it as session_id)")
	f.BoolVar(&p.list, "list", false, "print the session's approvals")
	f.BoolVar(&p.clear, "clear", false, "remove the session's approvals")
	f.BoolVar(&p.wide, "wide", false, "record a pattern with * or ?, which approves every call it matches")
	p.rules.bind(cmd)
	p.state.bind(cmd)
	return cmd
}

func runApprove(p *approveParams, args []string, stdout, stderr io.Writer) error {
	state, err := p.state.required()
	if err != nil {
		return err
	}
	policy, seen, err := p.policy(state)
	if err != nil {
		return err
	}
	label := policyLabel(policy)
	switch {
	case p.list:
		approvals, err := state.Approvals(policy, p.session)
		if err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintf(stderr, "regate: session %s, %s: %s\n", p.session, label, plural(len(approvals), "approval"))
		for _, ap := range approvals {
			fmt.Fprintf(stdout, "%s\t%s\n", ap.Surface, ap.Pattern)
		}
		return nil
	case p.clear:
		if err := state.Revoke(policy, p.session); err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintf(stdout, "cleared the approvals of session %s under %s\n", p.session, label)
		return nil
	}
	ap := compiler.Approval{Surface: strings.TrimSpace(args[0]), Pattern: args[1]}
	if strings.ContainsAny(ap.Pattern, "*?") && !p.wide {
		return withCode(exitUsage, fmt.Errorf("%s pattern %q holds * or ?, so it approves every call it matches, not only the one asked; "+
			"approve the exact value, or add --wide if every match is meant", ap.Surface, ap.Pattern))
	}
	// The pattern must compile as the session layer will compile it.
	if _, err := compiler.CompileApprovals([]compiler.Approval{ap}, p.rules.home); err != nil {
		return withCode(exitUsage, err)
	}
	if err := state.Approve(policy, p.session, ap); err != nil {
		return withCode(exitFault, err)
	}
	fmt.Fprintf(stdout, "approved %s %q for session %s under %s\n", ap.Surface, ap.Pattern, p.session, label)
	if len(seen) == 0 {
		fmt.Fprintf(stderr, "regate: no hook call of session %s is recorded in the state folder %s yet: the approval applies "+
			"when the session's hook decides under %s with this state folder\n", p.session, state.Root(), label)
	}
	return nil
}

// policy is the identity the approval is filed under, and the policies the
// session's hook calls were recorded deciding under. With rule flags, the
// policy they name, which the hook must have used if it used any; without,
// the one policy the session's hook uses, else the bundled default.
func (p *approveParams) policy(state *statedir.Dir) (string, []string, error) {
	seen, err := state.SeenPolicies(p.session)
	if err != nil {
		return "", nil, withCode(exitFault, err)
	}
	if p.rules.policy == "" && !p.rules.pi {
		switch len(seen) {
		case 0:
			return defaultPolicyID, nil, nil
		case 1:
			return seen[0], seen, nil
		}
		return "", nil, withCode(exitUsage, fmt.Errorf("session %s's hooks decide under %d policies (%s): name one with --policy",
			p.session, len(seen), labels(seen)))
	}
	// The rule files must be readable, as the hook will read them.
	if _, err := p.rules.input(); err != nil {
		return "", nil, err
	}
	policy, err := p.rules.policyID()
	if err != nil {
		return "", nil, err
	}
	if len(seen) > 0 && !slices.Contains(seen, policy) && !p.list && !p.clear {
		return "", nil, withCode(exitUsage, fmt.Errorf("session %s's hook decides under %s, not %s: an approval filed there would never apply; "+
			"give --policy as the hook does", p.session, labels(seen), policyLabel(policy)))
	}
	return policy, seen, nil
}

func labels(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = policyLabel(id)
	}
	return strings.Join(out, ", ")
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
