package hosts

import (
	"errors"
	"testing"
)

// TestOtherEvents: a hook called for an event that gates no tool call
// (after the tool ran, or about no tool) decides nothing and answers
// nothing; the events each host gates are still decoded, and input with
// no event name is read as the host's gating event.
func TestOtherEvents(t *testing.T) {
	const bash = `"tool_name":"Bash","tool_input":{"command":"rm -rf build"}`
	cases := []struct {
		host, raw string
		other     bool
	}{
		{"claude", `{"hook_event_name":"PostToolUse",` + bash + `,"tool_response":{}}`, true},
		{"claude", `{"hook_event_name":"Stop","stop_hook_active":false}`, true},
		{"claude", `{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`, true},
		{"claude", `{"hook_event_name":"PreToolUse",` + bash + `}`, false},
		{"claude", `{"hook_event_name":"PermissionRequest",` + bash + `}`, false},
		{"claude", `{` + bash + `}`, false},
		{"codex", `{"hook_event_name":"PostToolUse",` + bash + `}`, true},
		{"codex", `{"hook_event_name":"SessionStart","source":"startup"}`, true},
		{"codex", `{"hook_event_name":"PreToolUse",` + bash + `}`, false},
		{"codex", `{"hook_event_name":"PermissionRequest",` + bash + `}`, false},
		{"gemini", `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{}}`, true},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, false},
		{"copilot", `{"timestamp":1,"cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":{"resultType":"success","textResultForLlm":"x"}}`, true},
		{"copilot", `{"hook_event_name":"PostToolUse","session_id":"s",` + bash + `,"tool_response":{}}`, true},
		{"copilot", `{"timestamp":1,"cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, false},
		{"copilot", `{"hook_event_name":"PreToolUse","session_id":"s",` + bash + `}`, false},
		{"opencode", `{"hook_event_name":"tool.execute.after","tool":"bash","args":{"command":"ls"}}`, true},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"ls"}}`, false},
	}
	for _, c := range cases {
		codec, err := Lookup(c.host, Options{})
		if err != nil {
			t.Fatal(err)
		}
		req, err := codec.Decode([]byte(c.raw))
		if got := errors.Is(err, ErrOtherEvent); got != c.other {
			t.Errorf("%s %s: other event %v (%v); want %v", c.host, c.raw, got, err, c.other)
			continue
		}
		if c.other {
			if a := Pass(err); a.Exit != 0 || len(a.Stdout) != 0 || a.Stderr == "" {
				t.Errorf("%s %s: Pass = %+v; want no answer, exit 0, a note on stderr", c.host, c.raw, a)
			}
		} else if err != nil || len(req.Calls) == 0 {
			t.Errorf("%s %s: a gating event decoded to %+v, %v", c.host, c.raw, req.Calls, err)
		}
	}
}
