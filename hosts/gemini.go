package hosts

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// gemini is Gemini CLI's BeforeTool hook (checked against 0.61.0,
// docs/hosts.md), which answers {"decision": "allow"|"deny"|"ask",
// "reason"}. Gemini CLI reads the answer from stdout whatever the exit
// code, so a fault is a deny on stdout as well as exit 2. Releases before
// March 2026 took an ask for an allow; --ask deny (or allow) answers an ask
// that way instead.
//
// Gemini CLI 0.61.0 answers a hook's ask with its confirmation dialog even
// in headless mode (-p), where nothing can answer it: the run hangs. So by
// default ("auto") an ask is an ask only when a person can see it (the hook
// has a controlling terminal, Options.Attended), and a deny that says why
// otherwise.
type gemini struct {
	askAs string
}

func newGemini(o Options) (Codec, error) {
	switch o.AskAs {
	case "", "auto":
		if o.Attended {
			return gemini{askAs: "ask"}, nil
		}
		return gemini{askAs: "unattended"}, nil
	case "ask", "deny", "allow":
		return gemini{askAs: o.AskAs}, nil
	}
	return nil, fmt.Errorf("hosts: --ask %q: use auto, ask, deny or allow", o.AskAs)
}

var dirPath = map[string]string{"dir_path": "path"}

// geminiTools maps Gemini CLI's built-in tools (ALL_BUILTIN_TOOL_NAMES in
// packages/core) to regate's; read_mcp_resource and list_mcp_resources are
// their server's calls (resources.go), the others keep their own name
// (geminiOwnName).
var geminiTools = map[string]toolSpec{
	// dir_path is the directory the command runs in.
	"run_shell_command": {tool: "bash", keys: map[string]string{"dir_path": "workdir"}},
	"read_file":         {tool: "read", keys: map[string]string{"file_path": "path", "absolute_path": "path"}},
	// include (and paths, in older releases): one read per entry.
	"read_many_files":     {tool: "read", each: []string{"include", "paths"}},
	"write_file":          {tool: "write", keys: filePath},
	"replace":             {tool: "edit", keys: filePath},
	"glob":                {tool: "find", keys: dirPath},
	"grep_search":         {tool: "grep", keys: map[string]string{"dir_path": "path", "include_pattern": "glob"}},
	"search_file_content": {tool: "grep", keys: map[string]string{"dir_path": "path", "include_pattern": "glob", "include": "glob"}},
	"list_directory":      {tool: "ls", keys: dirPath},
	"activate_skill":      {tool: "skill"}, // {name}
	"invoke_agent":        {tool: "task"},  // {agent_name, prompt}
}

// geminiOwnName are the tools Gemini CLI 0.61.0 offers that keep their own
// name, so that a policy key of that name decides them: the todo list and
// the task tracker, a question to the person, plan mode, the topic, a
// subagent's final answer and Google search through the Gemini API (the
// bundled default policy allows these), web_fetch (it asks), the
// processes run_shell_command started in the background
// (list_background_processes, read_background_output: their output, which
// asks under the default policy) and its own documentation.
var geminiOwnName = []string{"write_todos", "tracker_create_task", "tracker_update_task", "tracker_get_task",
	"tracker_list_tasks", "tracker_add_dependency", "tracker_visualize", "ask_user", "enter_plan_mode",
	"exit_plan_mode", "update_topic", "complete_task", "google_web_search", "web_fetch",
	"list_background_processes", "read_background_output", "get_internal_docs"}

// geminiInput is Gemini CLI's BeforeTool input: Claude Code's fields, and
// mcp_context for a tool of an MCP server.
type geminiInput struct {
	MCP *struct {
		Server string `json:"server_name"`
		Tool   string `json:"tool_name"`
	} `json:"mcp_context"`
}

func (gemini) Decode(raw []byte) (Request, error) {
	in, req, err := decodeClaudeShape(raw, "BeforeTool")
	if err != nil {
		return req, err
	}
	req.Event = "BeforeTool"
	var extra geminiInput
	_ = json.Unmarshal(raw, &extra) // a malformed mcp_context is left out: the name decides
	if call, ok := geminiMCP(in.ToolName, extra, in.ToolInput); ok {
		req.Calls = []facts.Call{call}
	} else if call, ok := resourceCall(in.ToolName, in.ToolInput); ok {
		req.Calls = []facts.Call{call}
	} else {
		req.Calls = geminiTools[in.ToolName].calls(in.ToolName, in.ToolInput)
	}
	req.Calls = withAgent(req.Calls, in.AgentType)
	return req, nil
}

// geminiMCP is the mcp call of an MCP tool: from mcp_context when Gemini
// sends it (server names may hold "_"); else from the name, mcp_SERVER_TOOL
// split at its first "_" after the prefix as Gemini's own parseMcpToolName
// does, or SERVER__TOOL of releases before the mcp_ prefix.
func geminiMCP(name string, in geminiInput, input map[string]any) (facts.Call, bool) {
	if in.MCP != nil && in.MCP.Server != "" && in.MCP.Tool != "" {
		return mcp(in.MCP.Server, in.MCP.Tool, input), true
	}
	if call, ok := mcpCall(name, input); ok {
		return call, true
	}
	if rest, ok := strings.CutPrefix(name, "mcp_"); ok {
		if server, tool, ok := strings.Cut(rest, "_"); ok && server != "" && tool != "" {
			return mcp(server, tool, input), true
		}
		return facts.Call{}, false
	}
	if server, tool, ok := strings.Cut(name, "__"); ok && server != "" && tool != "" {
		return mcp(server, tool, input), true
	}
	return facts.Call{}, false
}

func (g gemini) Encode(_ Request, d runtime.Decision) Answer {
	switch d.Action {
	case "allow":
		return jsonAnswer(map[string]any{"decision": "allow", "reason": reason(d)})
	case "ask":
		switch g.askAs {
		case "allow":
			return jsonAnswer(map[string]any{"decision": "allow", "reason": reason(d) + " (allowed by --ask allow)"})
		case "deny":
			return jsonAnswer(map[string]any{"decision": "deny", "reason": reason(d) + " regate denies an ask here (--ask deny); run it yourself or allow it in the policy."})
		case "unattended":
			return jsonAnswer(map[string]any{"decision": "deny", "reason": reason(d) + " No one can answer a prompt here (Gemini CLI has no terminal), so regate denies it; run it yourself or allow it in the policy."})
		}
		// Gemini CLI shows systemMessage in its confirmation.
		return jsonAnswer(map[string]any{"decision": "ask", "reason": reason(d), "systemMessage": reason(d)})
	}
	return jsonAnswer(map[string]any{"decision": "deny", "reason": reason(d)})
}

func (gemini) Fail(_ Request, why string) Answer {
	a := jsonAnswer(map[string]any{"decision": "deny", "reason": "[regate] blocked: " + why})
	a.Stderr, a.Exit = "[regate] blocked: "+why+"\n", 2
	return a
}
