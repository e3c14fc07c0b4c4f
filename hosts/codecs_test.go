package hosts

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

type in = map[string]any

func call(tool string, input in) facts.Call { return facts.Call{Tool: tool, Input: input} }

func mcpOf(server, tool string, args in) facts.Call {
	return call("mcp", in{"server": server, "tool": tool, "arguments": args})
}

// Each host's tool calls, as the host sends them (docs/hosts.md), and the
// regate calls they become.
var decodeCases = []struct {
	host, raw string
	want      []facts.Call
}{
	// Claude Code 2.1.332.
	{"claude", `{"tool_name":"Read","tool_input":{"file_path":"/r/a"}}`, []facts.Call{call("read", in{"path": "/r/a"})}},
	{"claude", `{"tool_name":"Skill","tool_input":{"skill":"deploy","args":"prod"}}`, []facts.Call{call("skill", in{"name": "deploy", "args": "prod"})}},
	{"claude", `{"tool_name":"Agent","tool_input":{"subagent_type":"Explore","prompt":"p"}}`, []facts.Call{call("task", in{"subagent_type": "Explore", "prompt": "p"})}},
	{"claude", `{"tool_name":"Task","tool_input":{"prompt":"p"}}`, []facts.Call{call("task", in{"prompt": "p"})}},
	{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"Remove-Item x"}}`, []facts.Call{call("bash", in{"command": "Remove-Item x"})}},
	{"claude", `{"tool_name":"Monitor","tool_input":{"command":"tail -f log","timeout_ms":1000,"description":"d"}}`,
		[]facts.Call{call("bash", in{"command": "tail -f log", "timeout_ms": float64(1000), "description": "d"})}},
	{"claude", `{"tool_name":"Grep","tool_input":{"pattern":"k","glob":"*.env"}}`, []facts.Call{call("grep", in{"pattern": "k", "glob": "*.env"})}},
	{"claude", `{"tool_name":"LSP","tool_input":{"operation":"hover","filePath":"/r/.env","line":1}}`,
		[]facts.Call{call("LSP", in{"operation": "hover", "path": "/r/.env", "line": float64(1)})}},
	{"claude", `{"tool_name":"TodoWrite","tool_input":{"todos":[]}}`, []facts.Call{call("TodoWrite", in{"todos": []any{}})}},
	{"claude", `{"tool_name":"mcp__gh__get","tool_input":{"n":1}}`, []facts.Call{mcpOf("gh", "get", in{"n": float64(1)})}},
	{"claude", `{"tool_name":"mcp__plugin_tools_gh__get_issue","tool_input":{}}`, []facts.Call{mcpOf("plugin_tools_gh", "get_issue", in{})}},
	{"claude", `{"tool_name":"mcp__remote-devices__Claude_Browser__save","tool_input":{}}`, []facts.Call{mcpOf("remote-devices", "Claude_Browser__save", in{})}},
	{"claude", `{"tool_name":"mcp__broken","tool_input":{}}`, []facts.Call{call("mcp__broken", in{})}},
	// MCP resource tools are calls of their server.
	{"claude", `{"tool_name":"ReadMcpResourceTool","tool_input":{"server":"fs","uri":"file:///etc/hosts"}}`, []facts.Call{mcpOf("fs", "resources/read", in{"uri": "file:///etc/hosts"})}},
	{"claude", `{"tool_name":"ReadMcpResourceDirTool","tool_input":{"server":"fs","uri":"file:///etc"}}`, []facts.Call{mcpOf("fs", "resources/read", in{"uri": "file:///etc"})}},
	{"claude", `{"tool_name":"ListMcpResourcesTool","tool_input":{"server":"fs"}}`, []facts.Call{mcpOf("fs", "resources/list", in{})}},
	{"claude", `{"tool_name":"ListMcpResourcesTool","tool_input":{}}`, []facts.Call{call("ListMcpResourcesTool", in{})}},
	// Codex 0.171.0: shell tools arrive as Bash with one string; apply_patch
	// as the raw patch in "command".
	{"codex", `{"tool_name":"Bash","tool_input":{"command":"bash -lc 'git status'"}}`, []facts.Call{call("bash", in{"command": "git status"})}},
	{"codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.md\n+x\n  *** Update File: .env\n@@\n-a\n+b\n*** End Patch\n"}}`,
		[]facts.Call{call("write", in{"path": "a.md"}), call("edit", in{"path": ".env"})}},
	{"codex", `{"tool_name":"Bash","tool_input":{"command":"cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: .env\n*** End Patch\nEOF"}}`,
		[]facts.Call{call("bash", in{"command": "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: .env\n*** End Patch\nEOF"}), call("edit", in{"path": "sub/.env"})}},
	{"codex", `{"tool_name":"Bash","tool_input":{"command":["apply_patch","*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch"]}}`,
		[]facts.Call{call("bash", in{"command": "apply_patch '*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch'"}), call("write", in{"path": ".env"})}},
	{"codex", `{"tool_name":"spawn_agent","tool_input":{"message":"m","agent_type":"worker"}}`, []facts.Call{call("task", in{"message": "m", "agent_type": "worker"})}},
	{"codex", `{"tool_name":"view_image","tool_input":{"path":"/home/u/shot.png"}}`, []facts.Call{call("read", in{"path": "/home/u/shot.png"})}},
	{"codex", `{"tool_name":"read_mcp_resource","tool_input":{"server":"docs","uri":"file:///etc/passwd"}}`,
		[]facts.Call{call("mcp", in{"server": "docs", "tool": "resources/read", "arguments": map[string]any{"uri": "file:///etc/passwd"}})}},
	{"codex", `{"tool_name":"list_mcp_resource_templates","tool_input":{"server":"docs","cursor":"c"}}`,
		[]facts.Call{call("mcp", in{"server": "docs", "tool": "resources/templates/list", "arguments": map[string]any{"cursor": "c"}})}},
	{"codex", `{"tool_name":"list_mcp_resources","tool_input":{}}`, []facts.Call{call("list_mcp_resources", in{})}},
	{"codex", `{"tool_name":"write_stdin","tool_input":{"session_id":1,"chars":"y\n"}}`, []facts.Call{call("write_stdin", in{"session_id": 1.0, "chars": "y\n"})}},
	{"codex", `{"tool_name":"mcp__gh__get","tool_input":{}}`, []facts.Call{mcpOf("gh", "get", in{})}},
	{"codex", `{"tool_name":"shell","tool_input":{"command":["bash","-lc","ls"]},"agent_type":"r"}`, []facts.Call{{Tool: "bash", Input: in{"command": "ls"}, Agent: "r"}}},
	// Gemini CLI 0.61.0.
	{"gemini", `{"tool_name":"write_file","tool_input":{"file_path":"a","content":"x"}}`, []facts.Call{call("write", in{"path": "a", "content": "x"})}},
	{"gemini", `{"tool_name":"grep_search","tool_input":{"pattern":"k","dir_path":"src","include_pattern":"*.env"}}`,
		[]facts.Call{call("grep", in{"pattern": "k", "path": "src", "glob": "*.env"})}},
	{"gemini", `{"tool_name":"search_file_content","tool_input":{"pattern":"k","include":"*.env"}}`, []facts.Call{call("grep", in{"pattern": "k", "glob": "*.env"})}},
	{"gemini", `{"tool_name":"glob","tool_input":{"pattern":"*.go","dir_path":"secrets"}}`, []facts.Call{call("find", in{"pattern": "*.go", "path": "secrets"})}},
	{"gemini", `{"tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, []facts.Call{call("ls", in{"path": "/etc"})}},
	{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"cat key","dir_path":"secrets"}}`, []facts.Call{call("bash", in{"command": "cat key", "workdir": "secrets"})}},
	{"gemini", `{"tool_name":"read_many_files","tool_input":{"include":["docs/*.md",".env"],"recursive":true}}`,
		[]facts.Call{call("read", in{"path": "docs/*.md", "recursive": true}), call("read", in{"path": ".env", "recursive": true})}},
	{"gemini", `{"tool_name":"read_many_files","tool_input":{"paths":["a"],"include":["b"]}}`, []facts.Call{call("read", in{"path": "b"}), call("read", in{"path": "a"})}},
	{"gemini", `{"tool_name":"read_many_files","tool_input":{"include":[7]}}`, []facts.Call{call("read", in{"path": float64(7)})}},
	{"gemini", `{"tool_name":"mcp_my_srv_get_issue","tool_input":{"n":1},"mcp_context":{"server_name":"my_srv","tool_name":"get_issue"}}`,
		[]facts.Call{mcpOf("my_srv", "get_issue", in{"n": float64(1)})}},
	{"gemini", `{"tool_name":"mcp_github_get_issue","tool_input":{}}`, []facts.Call{mcpOf("github", "get_issue", in{})}},
	{"gemini", `{"tool_name":"github__get_issue","tool_input":{}}`, []facts.Call{mcpOf("github", "get_issue", in{})}},
	{"gemini", `{"tool_name":"activate_skill","tool_input":{"name":"pdf"}}`, []facts.Call{call("skill", in{"name": "pdf"})}},
	{"gemini", `{"tool_name":"invoke_agent","tool_input":{"agent_name":"cli_help","prompt":"p"}}`, []facts.Call{call("task", in{"agent_name": "cli_help", "prompt": "p"})}},
	{"gemini", `{"tool_name":"read_mcp_resource","tool_input":{"uri":"file:///etc/passwd"}}`, []facts.Call{call("read_mcp_resource", in{"uri": "file:///etc/passwd"})}},
	{"gemini", `{"tool_name":"write_todos","tool_input":{"todos":[]}}`, []facts.Call{call("write_todos", in{"todos": []any{}})}},
	// Copilot CLI 1.0.102: toolArgs is a JSON string.
	{"copilot", `{"timestamp":1,"cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"rm -rf build\"}"}`, []facts.Call{call("bash", in{"command": "rm -rf build"})}},
	{"copilot", `{"toolName":"view","toolArgs":{"path":"/r/.env"}}`, []facts.Call{call("read", in{"path": "/r/.env"})}},
	{"copilot", `{"toolName":"str_replace_editor","toolArgs":"{\"command\":\"create\",\"path\":\"a\"}"}`, []facts.Call{call("write", in{"command": "create", "path": "a"})}},
	{"copilot", `{"toolName":"grep","toolArgs":"{\"pattern\":\"k\",\"paths\":[\"a\",\"b\"]}"}`, []facts.Call{call("grep", in{"pattern": "k", "path": "a"}), call("grep", in{"pattern": "k", "path": "b"})}},
	{"copilot", `{"toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Delete File: x\n*** End Patch"}`, []facts.Call{call("edit", in{"path": "x"})}},
	{"copilot", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`, []facts.Call{call("bash", in{"command": "ls"})}},
	// OpenCode 1.18.33, through regate's plugin.
	{"opencode", `{"hook_event_name":"tool.execute.before","tool":"read","sessionID":"s","callID":"c","args":{"filePath":"/r/.env"},"cwd":"/r"}`, []facts.Call{call("read", in{"path": "/r/.env"})}},
	{"opencode", `{"tool":"grep","args":{"pattern":"k","include":"*.env"}}`, []facts.Call{call("grep", in{"pattern": "k", "glob": "*.env"})}},
	{"opencode", `{"tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Add File: n\n+x\n*** End Patch"}}`, []facts.Call{call("write", in{"path": "n"})}},
	{"opencode", `{"tool":"gh_get_issue","args":{"n":1},"mcp":{"server":"gh","tool":"get_issue"}}`, []facts.Call{mcpOf("gh", "get_issue", in{"n": float64(1)})}},
	{"opencode", `{"tool":"todowrite","args":{"todos":[]}}`, []facts.Call{call("todowrite", in{"todos": []any{}})}},
}

func TestDecodeMapsTools(t *testing.T) {
	for _, c := range decodeCases {
		codec, err := Lookup(c.host, Options{})
		if err != nil {
			t.Fatal(err)
		}
		req, err := codec.Decode([]byte(c.raw))
		if err != nil {
			t.Errorf("%s %s: %v", c.host, c.raw, err)
			continue
		}
		if !reflect.DeepEqual(req.Calls, c.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.host, c.raw, req.Calls, c.want)
		}
	}
}

// Input a host could send but regate cannot read is an error, which blocks.
func TestDecodeRefuses(t *testing.T) {
	for _, c := range []struct{ host, raw string }{
		{"codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Add File: a\n+x"}}`},
		{"codex", `{"tool_name":"apply_patch","tool_input":{}}`},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a\n*** End Patch\nEOF"}}`},
		{"copilot", `{"toolName":"bash","toolArgs":"{not json"}`},
		{"copilot", `{"toolArgs":"{}"}`},
		{"opencode", `{"tool":"apply_patch","args":{"patchText":"nope"}}`},
		{"opencode", `{"tool":"x","mcp":{"server":""}}`},
		{"opencode", `{"args":{}}`},
	} {
		codec, _ := Lookup(c.host, Options{})
		if req, err := codec.Decode([]byte(c.raw)); err == nil {
			t.Errorf("%s %s: decoded %+v", c.host, c.raw, req.Calls)
		}
	}
}

func TestNames(t *testing.T) {
	if got, want := Names(), []string{"claude", "codex", "copilot", "gemini", "opencode"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v; want %v", got, want)
	}
	if _, err := Lookup("pi", Options{}); err == nil {
		t.Error("Lookup(pi) found a codec; Pi talks to regate serve")
	}
	if _, err := Lookup("gemini", Options{AskAs: "maybe"}); err == nil {
		t.Error("Lookup(gemini, --ask maybe) succeeded")
	}
}

var deny = runtime.Decision{Action: "deny", Message: "no"}

// blocks reports whether an answer blocks the call in its host: exit 2, or
// a deny on stdout with exit 0.
func blocks(a Answer) bool {
	if a.Exit == 2 {
		return true
	}
	return a.Exit == 0 && strings.Contains(string(a.Stdout), `"deny"`)
}

// Every codec's Fail blocks, with a reason, for every event it answers.
func TestFailBlocks(t *testing.T) {
	for _, h := range Names() {
		codec, _ := Lookup(h, Options{})
		for _, ev := range []string{"", "PreToolUse", "PermissionRequest", "BeforeTool", "preToolUse", "tool.execute.before"} {
			a := codec.Fail(Request{Event: ev}, "boom")
			if !blocks(a) || !strings.Contains(a.Stderr, "boom") {
				t.Errorf("%s %q: Fail = %+v", h, ev, a)
			}
		}
	}
}

// Claude Code ignores exit 2 for PermissionRequest: a fault there, even in
// input that does not parse, is a deny decision on stdout.
func TestClaudePermissionRequestFault(t *testing.T) {
	req, err := claude{}.Decode([]byte(`{"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": `))
	if err == nil {
		t.Fatal("broken JSON decoded")
	}
	a := claude{}.Fail(req, err.Error())
	var out struct {
		H struct {
			Event    string `json:"hookEventName"`
			Decision struct{ Behavior, Message string }
		} `json:"hookSpecificOutput"`
	}
	if a.Exit != 0 || json.Unmarshal(a.Stdout, &out) != nil || out.H.Event != "PermissionRequest" || out.H.Decision.Behavior != "deny" ||
		!strings.Contains(out.H.Decision.Message, "not JSON") {
		t.Fatalf("Fail = %+v", a)
	}
	if a := (claude{}).Fail(Request{Event: "PreToolUse"}, "x"); a.Exit != 2 || len(a.Stdout) != 0 {
		t.Fatalf("PreToolUse Fail = %+v", a)
	}
}

// Gemini CLI asks the user since March 2026: an ask is answered as ask
// where a person can see the dialog, and as a deny where none can (a
// headless Gemini CLI 0.61.0 waits forever on it), unless --ask says
// otherwise.
func TestGeminiAsk(t *testing.T) {
	ask := runtime.Decision{Action: "ask", Message: "approve?"}
	for _, c := range []struct {
		askAs    string
		attended bool
		want     string
	}{
		{"", true, "ask"}, {"", false, "deny"}, {"auto", true, "ask"}, {"auto", false, "deny"},
		{"ask", false, "ask"}, {"ask", true, "ask"},
		{"deny", true, "deny"}, {"allow", false, "allow"},
	} {
		codec, err := Lookup("gemini", Options{AskAs: c.askAs, Attended: c.attended})
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Decision, Reason string }
		if a := codec.Encode(Request{}, ask); json.Unmarshal(a.Stdout, &out) != nil || out.Decision != c.want {
			t.Errorf("--ask %q attended=%v: %s; want %s", c.askAs, c.attended, a.Stdout, c.want)
		}
		if c.askAs == "" && !c.attended && !strings.Contains(out.Reason, "No one can answer") {
			t.Errorf("an unattended ask's deny does not say why: %q", out.Reason)
		}
	}
}

func TestCopilotAndOpenCodeAnswers(t *testing.T) {
	for _, c := range []struct {
		host, event string
		d           runtime.Decision
		want        string
	}{
		{"copilot", "preToolUse", deny, `{"permissionDecision":"deny","permissionDecisionReason":"no"}`},
		{"copilot", "preToolUse", runtime.Decision{Action: "ask", Message: "q"}, `{"permissionDecision":"ask","permissionDecisionReason":"q"}`},
		{"copilot", "PreToolUse", deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"},"permissionDecision":"deny","permissionDecisionReason":"no"}`},
		{"opencode", "tool.execute.before", runtime.Decision{Action: "allow", Message: "ok"}, `{"decision":"allow","reason":"ok"}`},
	} {
		codec, _ := Lookup(c.host, Options{})
		if a := codec.Encode(Request{Event: c.event}, c.d); strings.TrimSpace(string(a.Stdout)) != c.want || a.Exit != 0 {
			t.Errorf("%s %s %s: %+v; want %s", c.host, c.event, c.d.Action, a, c.want)
		}
	}
}

// Codex runs a call a silent PreToolUse hook leaves to it (codex exec, a
// full-access sandbox): an ask must reach it as a deny that says how to
// approve; only PermissionRequest, where Codex asks the user, stays silent.
func TestCodexAsk(t *testing.T) {
	ask := runtime.Decision{Action: "ask", Message: "approve?", Surface: "bash", Value: "make deploy"}
	a := codex{}.Encode(Request{Event: "PreToolUse", SessionID: "s1"}, ask)
	if a.Exit != 0 || !strings.Contains(string(a.Stdout), `"permissionDecision":"deny"`) ||
		!strings.Contains(string(a.Stdout), `regate approve --session s1 bash 'make deploy'`) {
		t.Errorf("PreToolUse ask: %+v", a)
	}
	if a := (codex{}).Encode(Request{Event: "PermissionRequest"}, ask); len(a.Stdout) != 0 || a.Exit != 0 {
		t.Errorf("PermissionRequest ask: %+v", a)
	}
	if a := (codex{}).Encode(Request{Event: "PreToolUse"}, runtime.Decision{Action: "allow"}); len(a.Stdout) != 0 || a.Exit != 0 {
		t.Errorf("PreToolUse allow: %+v", a)
	}
}
