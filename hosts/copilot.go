package hosts

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// copilot is GitHub Copilot CLI's command hook (checked against 1.0.102,
// docs/hosts.md), configured as preToolUse in .github/hooks/*.json or
// ~/.copilot/hooks. Under its camelCase name the hook reads {toolName,
// toolArgs (a JSON string, or an object), cwd, timestamp, sessionId?} and
// answers {"permissionDecision": "allow"|"ask"|"deny",
// "permissionDecisionReason"}; under the PascalCase name PreToolUse it reads
// Claude Code's snake_case fields, which the codec reads too. Copilot CLI
// denies the call when a preToolUse hook exits 2 or errors, so a fault is a
// deny on stdout and exit 2.
type copilot struct {
	// servers lists the MCP servers Copilot CLI may run in cwd: its tools
	// are named SERVER-TOOL, and only the server names tell where the
	// server's part ends.
	servers func(cwd string) []string
}

type copilotInput struct {
	claudeInput
	ToolNameCamel string          `json:"toolName"`
	ToolArgs      json.RawMessage `json:"toolArgs"`
	// ToolResult is set only after the tool ran (postToolUse, whose
	// camelCase input names no event).
	ToolResult   json.RawMessage `json:"toolResult"`
	SessionCamel string          `json:"sessionId"`
	AgentCamel   string          `json:"agentType"`
}

// copilotTools maps Copilot CLI's built-in tools to regate's. Tools not
// listed keep their own name (copilotOwnName); Claude Code's names (a
// PascalCase hook of a Claude-format plugin) go by claudeTools.
var copilotTools = map[string]toolSpec{
	"bash":       {tool: "bash"},
	"powershell": {tool: "bash"},
	"view":       {tool: "read"},  // {path, view_range}
	"create":     {tool: "write"}, // {path, file_text}
	"edit":       {tool: "edit"},  // {path, old_str, new_str}
	"glob":       {tool: "find", each: []string{"paths"}},
	"grep":       {tool: "grep", each: []string{"paths"}},
	"rg":         {tool: "grep", each: []string{"paths"}},
	"task":       {tool: "task"},
	"skill":      {tool: "skill", keys: map[string]string{"skill": "name"}},
}

// copilotOwnName are the tools Copilot CLI 1.0.102 offers that keep their
// own name, so that a policy key of that name decides them: announcing
// intent, the todo list, finishing the task, a question to the person, and
// the output, list and stop of a shell or subagent it started in the
// background (the bundled default policy allows these); typing into one
// (write_bash, write_agent), web_fetch, its SQL over the session's own
// database (sql, session_store_sql) and fetching its own documentation
// (fetch_copilot_cli_documentation) ask under the default policy.
var copilotOwnName = []string{"report_intent", "update_todo", "task_complete", "ask_user", "exit_plan_mode",
	"read_bash", "list_bash", "stop_bash", "write_bash", "read_agent", "list_agents", "write_agent",
	"web_fetch", "sql", "session_store_sql", "fetch_copilot_cli_documentation"}

func (c copilot) Decode(raw []byte) (Request, error) {
	var in copilotInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return Request{Event: copilotEvent(sniffEvent(raw))}, inputProblem(err)
	}
	req := Request{Event: copilotEvent(in.Event), Cwd: in.Cwd, SessionID: first(in.SessionID, in.SessionCamel)}
	switch {
	case in.Event != "" && in.Event != "PreToolUse" && in.Event != "preToolUse":
		return req, otherEvent(in.Event)
	case len(in.ToolResult) > 0:
		return req, otherEvent("postToolUse")
	}
	name, input := in.ToolName, in.ToolInput
	if name == "" {
		name = in.ToolNameCamel
		args, err := copilotArgs(in.ToolArgs)
		if err != nil && name != "apply_patch" { // its toolArgs may be the raw patch
			return req, err
		}
		input = args
	}
	if name == "" {
		return req, errors.New("the hook input names no toolName")
	}
	switch {
	case name == "apply_patch":
		calls, err := patchCalls(copilotPatch(input, in.ToolArgs), "")
		if err != nil {
			return req, err
		}
		req.Calls = calls
	case name == "str_replace_editor":
		tool := "edit"
		switch input["command"] {
		case "view":
			tool = "read"
		case "create":
			tool = "write"
		}
		req.Calls = []facts.Call{{Tool: tool, Input: input}}
	default:
		if call, ok := mcpCall(name, input); ok {
			req.Calls = []facts.Call{call}
		} else if spec, ok := copilotTools[name]; ok {
			req.Calls = spec.calls(name, input)
		} else if call, ok := c.mcpCall(name, in.Cwd, input); ok {
			req.Calls = []facts.Call{call}
		} else {
			req.Calls = claudeTools[name].calls(name, input)
		}
	}
	req.Calls = withAgent(req.Calls, first(in.AgentType, in.AgentCamel))
	return req, nil
}

// mcpCall is the mcp call of a tool named SERVER-TOOL, SERVER being the
// longest server name Copilot CLI knows that the name starts with.
func (c copilot) mcpCall(name, cwd string, input map[string]any) (facts.Call, bool) {
	if c.servers == nil {
		return facts.Call{}, false
	}
	server := ""
	for _, s := range c.servers(cwd) {
		for _, spelled := range []string{s, copilotSanitize(s)} {
			if len(spelled) > len(server) && len(name) > len(spelled)+1 && strings.HasPrefix(name, spelled+"-") {
				server = spelled
			}
		}
	}
	if server == "" {
		return facts.Call{}, false
	}
	return mcp(server, name[len(server)+1:], input), true
}

// copilotSanitize spells a server name as it appears in a tool name:
// characters other than letters, digits, "_" and "-" become "_".
func copilotSanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// copilotEvent is the event a request answers: preToolUse unless the
// input names PreToolUse (the VS Code-compatible payload).
func copilotEvent(e string) string {
	if e == "PreToolUse" {
		return e
	}
	return "preToolUse"
}

// copilotArgs reads toolArgs: a JSON string holding the arguments object,
// or the object itself; absent, no arguments.
func copilotArgs(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		raw = json.RawMessage(s)
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("toolArgs is not a JSON object: %w", err)
	}
	return args, nil
}

// copilotPatch is apply_patch's patch: a string key of its arguments, or
// toolArgs itself when it is the raw patch rather than JSON.
func copilotPatch(input map[string]any, raw json.RawMessage) string {
	if p := patchText(input); p != "" {
		return p
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (copilot) Encode(req Request, d runtime.Decision) Answer {
	out := map[string]any{"permissionDecision": string(d.Action), "permissionDecisionReason": reason(d)}
	if req.Event == "PreToolUse" {
		out["hookSpecificOutput"] = map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": string(d.Action), "permissionDecisionReason": reason(d)}
	}
	return jsonAnswer(out)
}

func (c copilot) Fail(req Request, why string) Answer {
	a := c.Encode(req, runtime.Decision{Action: "deny", Message: "[regate] blocked: " + why})
	a.Stderr, a.Exit = "[regate] blocked: "+why+"\n", 2
	return a
}
