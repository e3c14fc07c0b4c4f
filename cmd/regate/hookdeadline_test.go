package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/hosts"
)

// hookInputs are one tool call per host, as each host's hook sends it.
var hookInputs = map[string][]string{
	"claude": {
		`{"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`,
		`{"session_id": "s", "cwd": "/repo", "hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"}}`,
	},
	"codex": {
		`{"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`,
		`{"session_id": "s", "cwd": "/repo", "hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"}}`,
	},
	"gemini": {
		`{"session_id": "s", "cwd": "/repo", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}`,
	},
	"copilot": {
		// As Copilot CLI 1.0.102 sends it (no event name; toolArgs an object).
		`{"sessionId": "s", "timestamp": 1796298646096, "cwd": "/repo", "toolName": "bash", "toolArgs": {"command": "ls", "description": "list"}}`,
	},
	"opencode": {
		`{"hook_event_name": "tool.execute.before", "tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "ls"}, "cwd": "/repo"}`,
	},
}

// A decision slower than --deadline is answered, within about the deadline,
// with exactly the block the host's codec gives for that request: for every
// host and event, so a host that runs the tool when its own timeout passes
// never sees one.
func TestHookDeadlineBlocksASlowDecision(t *testing.T) {
	t.Setenv(testDelayEnv, "20s")
	const deadline = 300 * time.Millisecond
	for _, host := range hosts.Names() {
		inputs, ok := hookInputs[host]
		if !ok {
			t.Errorf("%s: no hook input to test the deadline with; add one to hookInputs", host)
			continue
		}
		codec, err := hosts.Lookup(host, hosts.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			req, err := codec.Decode([]byte(in))
			if err != nil {
				t.Fatalf("%s: %v", host, err)
			}
			want := codec.Fail(req, "regate did not decide within 300ms")
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := Main([]string{"hook", host, "--no-state", "--deadline", deadline.String()}, strings.NewReader(in), &stdout, &stderr)
			took := time.Since(start)
			if took > deadline+2*time.Second {
				t.Errorf("%s: answered after %s, deadline %s", host, took, deadline)
			}
			if code != want.Exit || stdout.String() != string(want.Stdout) || !strings.Contains(stderr.String(), want.Stderr) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want the codec's block %+v", host, req.Event, code, stdout.String(), stderr.String(), want)
			}
		}
	}
}

// Without a delay the deadline changes nothing: the decision is answered.
func TestHookDeadlineLetsADecisionThrough(t *testing.T) {
	var stdout, stderr bytes.Buffer
	in := `{"session_id": "s", "cwd": "/repo", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}}`
	code := Main([]string{"hook", "gemini", "--no-state", "--deadline", "20s"}, strings.NewReader(in), &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), `"decision":"deny"`) || strings.Contains(stdout.String(), "did not decide") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// A deadline that is not positive, and a test delay that is not a
// duration, block instead of deciding without a budget.
func TestHookDeadlineBadValuesBlock(t *testing.T) {
	in := `{"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`
	for _, c := range []struct{ deadline, delay, want string }{
		{"0s", "", "--deadline must be a positive duration"},
		{"-1s", "", "--deadline must be a positive duration"},
		{"10s", "soon", "REGATE_TEST_DELAY=\"soon\" is not a duration"},
	} {
		t.Setenv(testDelayEnv, c.delay)
		var stdout, stderr bytes.Buffer
		code := Main([]string{"hook", "claude", "--no-state", "--deadline", c.deadline}, strings.NewReader(in), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("--deadline %s, delay %q: exit %d, stderr %q", c.deadline, c.delay, code, stderr.String())
		}
	}
}
