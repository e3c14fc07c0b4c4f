package hosts

import (
	"encoding/json"
	"errors"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// opencode answers regate's OpenCode plugin (tool.execute.before; checked
// against opencode-ai 1.18.33, docs/hosts.md). The plugin sends
// {"hook_event_name": "tool.execute.before", "tool", "sessionID", "callID",
// "args", "cwd", "mcp"?} and blocks the call on anything but a well-formed
// {"decision": "allow"}; an ask is answered as ask and the plugin asks (or
// blocks where it cannot). A fault exits 2 with the reason on stderr.
type opencode struct{}

type opencodeInput struct {
	Event     string         `json:"hook_event_name"`
	Tool      string         `json:"tool"`
	SessionID string         `json:"sessionID"`
	Args      map[string]any `json:"args"`
	Cwd       string         `json:"cwd"`
	Agent     string         `json:"agent"`
	// MCP names the server and tool of an MCP tool, which OpenCode
	// registers as SERVER_TOOL: only the plugin can tell them apart.
	MCP *struct {
		Server string `json:"server"`
		Tool   string `json:"tool"`
	} `json:"mcp"`
}

var opencodeFile = map[string]string{"filePath": "path"}

// opencodeTools maps OpenCode's built-in tools to regate's. Tools not listed
// keep their own name (opencodeOwnName).
var opencodeTools = map[string]toolSpec{
	"bash":      {tool: "bash"}, // {command, workdir, timeout, description}
	"read":      {tool: "read", keys: opencodeFile},
	"write":     {tool: "write", keys: opencodeFile},
	"edit":      {tool: "edit", keys: opencodeFile},
	"multiedit": {tool: "edit", keys: opencodeFile},
	"glob":      {tool: "find"},                                             // {pattern, path}
	"grep":      {tool: "grep", keys: map[string]string{"include": "glob"}}, // {pattern, path, include}
	"list":      {tool: "ls"},                                               // {path, ignore}
	"task":      {tool: "task"},                                             // {description, prompt, subagent_type}
	"skill":     {tool: "skill"},                                            // {name}
	"lsp":       {keys: opencodeFile},
}

// opencodeOwnName are the tools OpenCode 1.18.33 offers (some only with a
// setting) that keep their own name, so that a policy key of that name
// decides them: the todo list, a question to the person and plan mode (the
// bundled default policy allows these); webfetch, websearch and codesearch
// (which send the query to a third party) and batch (several calls at
// once, each of which OpenCode also gates on its own) ask under the
// default policy.
var opencodeOwnName = []string{"todowrite", "todoread", "question", "plan_enter", "plan_exit",
	"webfetch", "websearch", "codesearch", "batch"}

func (opencode) Decode(raw []byte) (Request, error) {
	var in opencodeInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return Request{Event: "tool.execute.before"}, inputProblem(err)
	}
	req := Request{Event: "tool.execute.before", Cwd: in.Cwd, SessionID: in.SessionID}
	if in.Event != "" && in.Event != "tool.execute.before" {
		return req, otherEvent(in.Event)
	}
	if in.Tool == "" {
		return req, errors.New("the hook input names no tool")
	}
	switch {
	case in.MCP != nil:
		if in.MCP.Server == "" || in.MCP.Tool == "" {
			return req, errors.New("the hook input's mcp names no server or tool")
		}
		req.Calls = []facts.Call{mcp(in.MCP.Server, in.MCP.Tool, in.Args)}
	case in.Tool == "apply_patch" || in.Tool == "patch":
		patch, _ := in.Args["patchText"].(string)
		calls, err := patchCalls(patch, "")
		if err != nil {
			return req, err
		}
		req.Calls = calls
	default:
		req.Calls = opencodeTools[in.Tool].calls(in.Tool, in.Args)
	}
	req.Calls = withAgent(req.Calls, in.Agent)
	return req, nil
}

func (opencode) Encode(_ Request, d runtime.Decision) Answer {
	return jsonAnswer(map[string]any{"decision": string(d.Action), "reason": reason(d)})
}

func (opencode) Fail(_ Request, why string) Answer {
	return Answer{Stderr: "[regate] blocked: " + why + "\n", Exit: 2}
}
