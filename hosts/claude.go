package hosts

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// claude is Claude Code's command hook (checked against 2.1.332, docs/hosts.md):
// PreToolUse answers allow, ask or deny in
// hookSpecificOutput.permissionDecision; PermissionRequest answers allow or
// deny in hookSpecificOutput.decision.behavior and stays silent for ask, so
// the host's own dialog shows. A fault in PreToolUse exits 2, which blocks
// the call; Claude Code ignores exit 2 for PermissionRequest, so there a
// fault is a deny decision on stdout. Any other event (PostToolUse, Stop, …)
// gates no call and gets no answer (ErrOtherEvent).
type claude struct{}

type claudeInput struct {
	SessionID string         `json:"session_id"`
	Cwd       string         `json:"cwd"`
	Event     string         `json:"hook_event_name"`
	ToolName  string         `json:"tool_name"`
	ToolInput map[string]any `json:"tool_input"`
	AgentType string         `json:"agent_type"`
}

var filePath = map[string]string{"file_path": "path"}

// claudeTools maps Claude Code's tools to regate's. Tools not listed keep
// their own name (TodoWrite, TaskCreate, WebFetch, AskUserQuestion, …);
// mcp__SERVER__TOOL names are mcp calls.
var claudeTools = map[string]toolSpec{
	"Bash":         {tool: "bash"},
	"PowerShell":   {tool: "bash"}, // {command}: the shell rules decide it
	"Monitor":      {tool: "bash"}, // {command} or {ws}; without a command it asks
	"Read":         {tool: "read", keys: filePath},
	"Write":        {tool: "write", keys: filePath},
	"Edit":         {tool: "edit", keys: filePath},
	"MultiEdit":    {tool: "edit", keys: filePath}, // releases before 2.1
	"NotebookEdit": {tool: "edit", keys: map[string]string{"notebook_path": "path"}},
	"Glob":         {tool: "find"},
	"Grep":         {tool: "grep"}, // its file filter is already "glob"
	"LS":           {tool: "ls"},   // releases before 2.1
	"Agent":        {tool: "task"},
	"Task":         {tool: "task"}, // Agent's former name, still its alias
	"Skill":        {tool: "skill", keys: map[string]string{"skill": "name"}},
	"LSP":          {keys: map[string]string{"filePath": "path"}},
}

// decodeClaudeShape reads the hook input Claude Code, Codex and Gemini CLI
// share; the request carries the event even when the rest does not parse.
// An event other than gates (and than none) is ErrOtherEvent.
func decodeClaudeShape(raw []byte, gates ...string) (claudeInput, Request, error) {
	var in claudeInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, Request{Event: sniffEvent(raw)}, inputProblem(err)
	}
	req := Request{Event: in.Event, Cwd: in.Cwd, SessionID: in.SessionID}
	if in.Event != "" && !slices.Contains(gates, in.Event) {
		return in, req, otherEvent(in.Event)
	}
	if in.ToolName == "" {
		return in, req, errors.New("the hook input names no tool_name")
	}
	return in, req, nil
}

func (claude) Decode(raw []byte) (Request, error) {
	in, req, err := decodeClaudeShape(raw, "PreToolUse", "PermissionRequest")
	if err != nil {
		return req, err
	}
	if req.Event == "" {
		req.Event = "PreToolUse"
	}
	if call, ok := mcpCall(in.ToolName, in.ToolInput); ok {
		req.Calls = []facts.Call{call}
	} else if call, ok := resourceCall(in.ToolName, in.ToolInput); ok {
		req.Calls = []facts.Call{call}
	} else {
		req.Calls = claudeTools[in.ToolName].calls(in.ToolName, in.ToolInput)
	}
	req.Calls = withAgent(req.Calls, in.AgentType)
	return req, nil
}

func (claude) Encode(req Request, d runtime.Decision) Answer {
	if req.Event == "PermissionRequest" {
		switch d.Action {
		case "allow":
			return permissionAnswer("allow", "")
		case "deny":
			return permissionAnswer("deny", reason(d))
		}
		return Answer{} // ask: the host's own dialog
	}
	return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": string(d.Action), "permissionDecisionReason": reason(d)}})
}

func (claude) Fail(req Request, why string) Answer {
	msg := "[regate] blocked: " + why
	if req.Event == "PermissionRequest" {
		a := permissionAnswer("deny", msg)
		a.Stderr = msg + "\n"
		return a
	}
	return Answer{Stderr: msg + "\n", Exit: 2}
}

// permissionAnswer is Claude Code's and Codex's PermissionRequest decision.
func permissionAnswer(behavior, message string) Answer {
	decision := map[string]any{"behavior": behavior}
	if message != "" {
		decision["message"] = message
	}
	return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PermissionRequest", "decision": decision}})
}

func jsonAnswer(v any) Answer {
	b, err := json.Marshal(v)
	if err != nil {
		return Answer{Stderr: "[regate] blocked: " + err.Error() + "\n", Exit: 2}
	}
	return Answer{Stdout: append(b, '\n')}
}
