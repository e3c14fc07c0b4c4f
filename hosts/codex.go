package hosts

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// codex is OpenAI Codex's command hook (checked against 0.171.0,
// docs/hosts.md). Codex rejects ask, and a bare allow, from PreToolUse
// ("PreToolUse hook returned unsupported permissionDecision:ask"), and a
// silent hook leaves the call to Codex's own approval policy, which runs it
// unasked under codex exec or a full-access sandbox: so in PreToolUse regate
// answers an ask as a deny that says how to approve, a deny as a deny, and
// stays silent for an allow. PermissionRequest fires when Codex is about to
// ask the user: it answers allow or deny and stays silent for ask, so the
// user is asked. A fault exits 2 with the reason on stderr, which Codex
// takes as a block in PreToolUse and a denial in PermissionRequest.
type codex struct{}

// codexTools maps the tool names Codex's hooks carry to regate's: Bash (every
// shell tool, its command one string), apply_patch (the raw patch as
// "command", patch.go), spawn_agent, view_image (reads the image at path),
// and mcp__SERVER__TOOL; its MCP resource tools are their server's calls
// (resources.go). The other names are those of releases before hook names
// were normalised.
var codexTools = map[string]toolSpec{
	"view_image": {tool: "read"}, // {path}
	"Bash":       {tool: "bash"}, "shell": {tool: "bash"}, "local_shell": {tool: "bash"},
	"exec_command": {tool: "bash"}, "container.exec": {tool: "bash"},
	"spawn_agent": {tool: "task"},
	"read_file":   {tool: "read", keys: map[string]string{"file_path": "path"}},
	"list_dir":    {tool: "ls", keys: map[string]string{"dir_path": "path"}},
	"grep_files":  {tool: "grep", keys: map[string]string{"include": "glob"}},
}

// codexOwnName are the tools Codex 0.171.0 offers that keep their own name,
// so that a policy key of that name decides them: the goal (create_goal,
// get_goal, update_goal) and a question to the person (request_user_input),
// which the bundled default policy allows; write_stdin, which types into a
// command exec_command started (it asks: what it types runs).
var codexOwnName = []string{"create_goal", "get_goal", "update_goal", "request_user_input", "write_stdin"}

func (codex) Decode(raw []byte) (Request, error) {
	in, req, err := decodeClaudeShape(raw, "PreToolUse", "PermissionRequest") // Codex's hook input has Claude Code's field names
	if err != nil {
		return req, err
	}
	if req.Event == "" {
		req.Event = "PreToolUse"
	}
	switch {
	case in.ToolName == "apply_patch":
		req.Calls, err = patchCalls(patchText(in.ToolInput), "")
	case codexTools[in.ToolName].tool == "bash":
		req.Calls, err = codexShell(in.ToolInput)
	default:
		if call, ok := mcpCall(in.ToolName, in.ToolInput); ok {
			req.Calls = []facts.Call{call}
		} else if call, ok := resourceCall(in.ToolName, in.ToolInput); ok {
			req.Calls = []facts.Call{call}
		} else {
			req.Calls = codexTools[in.ToolName].calls(in.ToolName, in.ToolInput)
		}
	}
	if err != nil {
		return req, err
	}
	req.Calls = withAgent(req.Calls, in.AgentType)
	return req, nil
}

// patchText is apply_patch's patch: "command" since hook names were
// normalised, "input" or "patch" before, or an argv ["apply_patch", PATCH].
func patchText(input map[string]any) string {
	for _, k := range []string{"command", "input", "patch"} {
		if s, ok := input[k].(string); ok {
			return s
		}
	}
	if argv, ok := input["command"].([]any); ok && len(argv) == 2 && (argv[0] == "apply_patch" || argv[0] == "applypatch") {
		s, _ := argv[1].(string)
		return s
	}
	return ""
}

// patchCalls are the calls of a patch's files, each under dir when the patch
// runs in another directory; a patch that does not parse is an error, which
// blocks.
func patchCalls(patch, dir string) ([]facts.Call, error) {
	files, err := ParsePatch(patch)
	if err != nil {
		return nil, fmt.Errorf("apply_patch: %w", err)
	}
	if len(files) == 0 {
		return nil, errors.New("apply_patch names no file")
	}
	calls := make([]facts.Call, 0, len(files))
	for _, f := range files {
		p := f.Path
		if dir != "" && !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		calls = append(calls, facts.Call{Tool: f.Tool, Input: map[string]any{"path": p}})
	}
	return calls, nil
}

// codexShell is the bash call of a shell tool: its command as one string
// (bash -lc 'SCRIPT' is decided on SCRIPT), or an argv. A script that runs
// apply_patch with a heredoc is decided on the patch's files too, since
// Codex applies such a patch itself; so is apply_patch 'PATCH'.
func codexShell(input map[string]any) ([]facts.Call, error) {
	cmd, err := shellCommand(input["command"])
	if err != nil {
		return nil, err
	}
	calls := []facts.Call{{Tool: "bash", Input: map[string]any{"command": cmd}}}
	if words, ok := literalWords(cmd); ok && len(words) == 2 && (words[0] == "apply_patch" || words[0] == "applypatch") {
		more, err := patchCalls(words[1], "") // apply_patch 'PATCH', an argv joined
		if err != nil {
			return nil, err
		}
		calls = append(calls, more...)
	} else if patch, dir, ok := heredocPatch(cmd); ok {
		more, err := patchCalls(patch, dir)
		if err != nil {
			return nil, err
		}
		calls = append(calls, more...)
	}
	return calls, nil
}

// shellCommand is the script a shell tool runs: a string unwrapped from a
// plain shell -c form; an argv of a shell with -c or -lc, its script; any
// other argv, its words joined and quoted for the shell.
func shellCommand(v any) (string, error) {
	switch c := v.(type) {
	case string:
		return unwrapShell(c), nil
	case []any:
		argv := make([]string, len(c))
		for i, a := range c {
			s, ok := a.(string)
			if !ok {
				return "", errors.New("the command holds a word that is not a string")
			}
			argv[i] = s
		}
		if script, ok := shellScript(argv); ok {
			return script, nil
		}
		for i, a := range argv {
			argv[i] = shellQuote(a)
		}
		return strings.Join(argv, " "), nil
	}
	return "", errors.New("the shell tool has no command")
}

func (codex) Encode(req Request, d runtime.Decision) Answer {
	if req.Event == "PermissionRequest" {
		switch d.Action {
		case "allow":
			return permissionAnswer("allow", "")
		case "deny":
			return permissionAnswer("deny", reason(d))
		}
		return Answer{}
	}
	why := reason(d)
	switch d.Action {
	case "allow":
		return Answer{} // Codex's own approval flow goes on
	case "ask":
		why += " Codex cannot show regate's question here, so regate blocks it: to allow it, add a rule to the policy, or approve it for this session with " +
			approveHint(req.SessionID, d) + " (with the hook's rule flags) and try again."
	}
	return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": why}})
}

// approveHint is the regate approve command that allows an asked call
// for the session.
func approveHint(session string, d runtime.Decision) string {
	if session == "" {
		session = "SESSION"
	}
	surface, value := d.Surface, d.Value
	if surface == "" {
		surface, value = "SURFACE", "VALUE"
	}
	return "regate approve --session " + shellQuote(session) + " " + shellQuote(surface) + " " + shellQuote(value)
}

func (codex) Fail(_ Request, why string) Answer {
	return Answer{Stderr: "[regate] blocked: " + why + "\n", Exit: 2}
}
