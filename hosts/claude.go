package hosts

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// claude is Claude Code's command hook: PreToolUse answers allow, ask or
// deny in hookSpecificOutput.permissionDecision; PermissionRequest answers
// allow or deny in hookSpecificOutput.decision.behavior and stays silent for
// ask, so the host's own dialog shows. A fault exits 2, which blocks the
// call whatever the event, with the reason on stderr.
type claude struct{}

type claudeInput struct {
	SessionID string         `json:"session_id"`
	Cwd       string         `json:"cwd"`
	Event     string         `json:"hook_event_name"`
	ToolName  string         `json:"tool_name"`
	ToolInput map[string]any `json:"tool_input"`
	AgentType string         `json:"agent_type"`
}

// claudeTools maps Claude Code's tools to regate's, with their path keys.
var claudeTools = map[string]struct {
	tool string
	keys map[string]string
}{
	"Bash":         {"bash", nil},
	"Read":         {"read", map[string]string{"file_path": "path"}},
	"Write":        {"write", map[string]string{"file_path": "path"}},
	"Edit":         {"edit", map[string]string{"file_path": "path"}},
	"MultiEdit":    {"edit", map[string]string{"file_path": "path"}},
	"NotebookEdit": {"edit", map[string]string{"notebook_path": "path"}},
	"Glob":         {"find", nil},
	"Grep":         {"grep", nil},
	"LS":           {"ls", nil},
	"Task":         {"task", nil},
	"Skill":        {"skill", map[string]string{"command": "name"}},
}

func (claude) Decode(raw []byte) (Request, error) {
	var in claudeInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return Request{}, fmt.Errorf("the hook input is not JSON: %w", err)
	}
	if in.ToolName == "" {
		return Request{}, errors.New("the hook input names no tool_name")
	}
	req := Request{Event: in.Event, Cwd: in.Cwd, SessionID: in.SessionID}
	if req.Event == "" {
		req.Event = "PreToolUse"
	}
	call, ok := mcpCall(in.ToolName, in.ToolInput)
	if !ok {
		t, known := claudeTools[in.ToolName]
		if !known {
			t.tool = in.ToolName // extension tools go by their registered name
		}
		call = facts.Call{Tool: t.tool, Input: renamed(in.ToolInput, t.keys)}
	}
	call.Agent = in.AgentType
	req.Calls = []facts.Call{call}
	return req, nil
}

func (claude) Encode(req Request, d runtime.Decision) Answer {
	if req.Event == "PermissionRequest" {
		switch d.Action {
		case "allow":
			return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "allow"}}})
		case "deny":
			return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "deny", "message": reason(d)}}})
		}
		return Answer{} // ask: the host's own dialog
	}
	return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": d.Action, "permissionDecisionReason": reason(d)}})
}

func (claude) Fail(_ Request, why string) Answer {
	return Answer{Stderr: "[regate] blocked: " + why + "\n", Exit: 2}
}

func jsonAnswer(v any) Answer {
	b, err := json.Marshal(v)
	if err != nil {
		return Answer{Stderr: "[regate] blocked: " + err.Error() + "\n", Exit: 2}
	}
	return Answer{Stdout: append(b, '\n')}
}
