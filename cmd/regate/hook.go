package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/hosts"
	"github.com/regate/regate/runtime"
)

// maxHookInput bounds what a hook reads from its host.
const maxHookInput = 4 << 20

type hookParams struct {
	rules ruleFlags
	state stateFlags
	askAs string
}

func newHookCmd(a *app) *cobra.Command {
	p := &hookParams{}
	cmd := &cobra.Command{
		Use:   "hook HOST",
		Short: "answer a coding agent's command hook: claude, codex, copilot, gemini or opencode",
		Long: `hook reads the host's hook JSON on standard input (the tool call, its working directory, the
agent, the session), decides the call against the rule files named by the flags (or the bundled
default policy) and writes the host's answer:

  claude    PreToolUse: permissionDecision allow, ask or deny with the reason;
            PermissionRequest: behavior allow or deny, nothing for ask (the host asks)
  codex     PreToolUse: deny, an ask as a deny saying how to approve, nothing for allow (Codex
            rejects ask and a bare allow, and runs a call a silent hook leaves to it);
            PermissionRequest: behavior allow or deny, nothing for ask; apply_patch is decided
            file by file, bash -lc 'SCRIPT' on its script
  copilot   preToolUse: permissionDecision allow, ask or deny with the reason
  gemini    BeforeTool: decision allow, ask or deny (--ask deny or allow for releases that
            cannot ask); read_many_files is decided path by path
  opencode  tool.execute.before (regate's plugin): decision allow, ask or deny

An event that gates no tool call (PostToolUse, AfterTool, postToolUse, Stop, …: a hook registered
for more events than these) is answered with nothing and exit 0, as a hook with no opinion.
Each host's tools, input keys and answers are tabled in docs/hosts.md. MCP tools
(mcp__SERVER__TOOL, Gemini's mcp_context) are decided as mcp calls. The compiled policy is kept
in the state folder, keyed by the hash of the rule files, so the next call does not compile
again; the session's approvals (regate approve) are read from there too, filed under the policy
file's absolute path (or the bundled default policy), and the hook records that it decided the
session under that policy, so that regate approve files an approval where the hook reads it.
Every fault (bad JSON, an unreadable policy, an internal error, a panic) is an explicit block in
the host's shape (exit 2, or a deny on stdout where the host reads one: Claude Code's
PermissionRequest, Gemini CLI, Copilot CLI) with a one-line reason, never a crash the host would
take for "run it".`,
		Example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"/repo"}' |
    regate hook claude --policy ~/.config/regate/policy.jsonc`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return withCode(2, fmt.Errorf("hook takes one host: %s", strings.Join(hosts.Names(), ", ")))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			codec, err := hosts.Lookup(args[0], hosts.Options{AskAs: p.askAs, Attended: hasTerminal()})
			if err != nil {
				return withCode(2, err) // no codec to answer with; exit 2 blocks in every host
			}
			ans := runHookWithin(cmd, p, codec, a.stdin, a.stderr)
			if _, err := a.stdout.Write(ans.Stdout); err != nil {
				return withCode(2, err)
			}
			fmt.Fprint(a.stderr, ans.Stderr)
			if ans.Exit != 0 {
				return withCode(ans.Exit, nil)
			}
			return nil
		},
	}
	// A flag the hook cannot read must block too: a usage error's exit code
	// would let the host run the call.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return withCode(2, err) })
	p.rules.bind(cmd)
	p.state.bind(cmd)
	bindHookDeadline(cmd)
	cmd.Flags().StringVar(&p.askAs, "ask", "auto", "gemini: what an ask becomes: auto (ask when the hook has a terminal, else deny: a headless Gemini CLI waits forever on an ask), ask, or deny or allow for Gemini CLI releases before March 2026, which run an asked call")
	return cmd
}

// runHook decides one hook invocation; whatever goes wrong, including a
// panic, the answer is the codec's block.
func runHook(ctx context.Context, p *hookParams, codec hosts.Codec, stdin io.Reader, stderr io.Writer) (ans hosts.Answer) {
	var req hosts.Request
	defer func() {
		if r := recover(); r != nil {
			ans = codec.Fail(req, fmt.Sprintf("internal error: %v", r))
		}
	}()
	if stdin == nil {
		return codec.Fail(req, "no hook input")
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, maxHookInput+1))
	if err != nil {
		return codec.Fail(req, "cannot read the hook input: "+err.Error())
	}
	if len(raw) > maxHookInput {
		return codec.Fail(req, fmt.Sprintf("the hook input is over %d bytes", maxHookInput))
	}
	if req, err = codec.Decode(raw); errors.Is(err, hosts.ErrOtherEvent) {
		return hosts.Pass(err)
	} else if err != nil {
		return codec.Fail(req, err.Error())
	}
	if err := hookDecoded(ctx, req); err != nil {
		return codec.Fail(req, err.Error())
	}
	cwd := req.Cwd
	if cwd == "" {
		if cwd, err = os.Getwd(); err != nil {
			return codec.Fail(req, err.Error())
		}
	}
	p.rules.cwd = cwd
	state := p.state.open(stderr)
	meta, load, err := p.rules.metaIn(stderr, state)
	if err != nil {
		return codec.Fail(req, "the policy cannot be read: "+errText(err))
	}
	opts := []runtime.Option{runtime.WithCwd(cwd), runtime.WithLoader(load)}
	if state != nil {
		// A call an earlier hook decided is answered from the state folder,
		// without reading the rules or preparing OPA.
		if store, err := state.Decisions(); err == nil {
			opts = append(opts, runtime.WithDecisionStore(store))
		}
	}
	eng, err := runtime.New(ctx, meta, opts...)
	if err != nil {
		return codec.Fail(req, errText(err))
	}
	if state != nil && req.SessionID != "" {
		// Without the policy's identity the approvals are left out: the
		// call asks more, never less.
		if policy, err := p.rules.policyID(); err != nil {
			fmt.Fprintf(stderr, "regate: session approvals left out: %v\n", errText(err))
		} else {
			// Recorded so that regate approve files an approval where this
			// hook reads it; a record that cannot be written only loses that.
			if err := state.Seen(policy, req.SessionID); err != nil {
				fmt.Fprintf(stderr, "regate: the session's policy is not recorded: %v\n", oneLine(err.Error()))
			}
			useRecordedApprovals(eng, state, policy, req.SessionID, stderr)
		}
	}
	ds := make([]runtime.Decision, 0, len(req.Calls))
	for _, c := range req.Calls {
		d, err := eng.Decide(ctx, c)
		if err != nil {
			return codec.Fail(req, errText(err))
		}
		ds = append(ds, d)
	}
	return codec.Encode(req, hosts.MostRestrictive(ds))
}

// errText is an error on one line, without the exit code wrapper.
func errText(err error) string {
	var ee *exitError
	if errors.As(err, &ee) && ee.err != nil {
		err = ee.err
	}
	return oneLine(err.Error())
}

func oneLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}
