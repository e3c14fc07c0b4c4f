package hosts_test

import (
	"context"
	"fmt"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/hosts"
	"github.com/regate/regate/runtime"
)

// Claude Code's PreToolUse hook JSON in, Claude Code's answer out: the
// codec reads the tool call (Bash here) into regate calls, the engine
// decides each, and the codec writes the most restrictive decision as the
// hook's stdout and exit code, as `regate hook claude` does.
func ExampleCodec() {
	ctx := context.Background()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(`{
  "permission": {"*": "ask", "bash": {"git *": "allow", "npm *": {"action": "deny", "reason": "use pnpm"}}}
}`)}}, compiler.WithHome("/home/u"))
	if err != nil {
		panic(err)
	}
	codec, err := hosts.Lookup("claude", hosts.Options{})
	if err != nil {
		panic(err)
	}
	for _, command := range []string{"git status", "git fetch && npm install"} {
		raw := fmt.Sprintf(`{"session_id": "s1", "cwd": "/home/u/repo", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": {"command": %q}}`, command)
		req, err := codec.Decode([]byte(raw))
		if err != nil {
			answer := codec.Fail(req, err.Error()) // bad input: blocked
			fmt.Printf("exit %d %s", answer.Exit, answer.Stderr)
			continue
		}
		eng, err := runtime.New(ctx, out, runtime.WithCwd(req.Cwd), runtime.WithFS(facts.MapFS{}))
		if err != nil {
			panic(err)
		}
		var ds []runtime.Decision
		for _, c := range req.Calls {
			d, err := eng.Decide(ctx, c)
			if err != nil {
				panic(err) // the hook answers codec.Fail: blocked
			}
			ds = append(ds, d)
		}
		answer := codec.Encode(req, hosts.MostRestrictive(ds))
		fmt.Printf("exit %d %s", answer.Exit, answer.Stdout)
	}
	// Output:
	// exit 0 {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"[regate] the agent may run 'bash' command 'git status' (matched 'git *')."}}
	// exit 0 {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"[regate] the agent is not permitted to run 'bash' command 'npm install' (matched 'npm *'). Reason: use pnpm."}}
}

// A fault (here, hook input that is not JSON) is a block in the host's own
// protocol: for Claude Code's PreToolUse, exit 2 with the reason on
// stderr. An event that gates no call gets no answer at all.
func ExampleCodec_fail() {
	codec, err := hosts.Lookup("claude", hosts.Options{})
	if err != nil {
		panic(err)
	}
	req, err := codec.Decode([]byte(`{"hook_event_name": "PreToolUse", "tool_name": `))
	answer := codec.Fail(req, err.Error())
	fmt.Printf("exit %d stdout %q stderr %q\n", answer.Exit, answer.Stdout, answer.Stderr)

	_, err = codec.Decode([]byte(`{"hook_event_name": "Stop"}`))
	answer = hosts.Pass(err)
	fmt.Printf("exit %d stdout %q stderr %q\n", answer.Exit, answer.Stdout, answer.Stderr)
	// Output:
	// exit 2 stdout "" stderr "[regate] blocked: the hook input is not JSON: unexpected end of JSON input\n"
	// exit 0 stdout "" stderr "[regate] hook event \"Stop\": regate decides tool calls before they run; this event gates none: no answer\n"
}
