package hosts

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// codex is OpenAI Codex's command hook. Codex rejects ask, and a bare
// allow, from PreToolUse: there regate answers only deny, and stays silent
// otherwise; PermissionRequest answers allow or deny and stays silent for
// ask, so Codex asks the user itself. apply_patch becomes one call per file
// the patch adds, updates, moves or deletes.
type codex struct{}

// codexTools maps Codex's tools to regate's.
var codexTools = map[string]string{
	"Bash": "bash", "shell": "bash", "local_shell": "bash", "exec_command": "bash", "container.exec": "bash",
	"read_file": "read", "list_dir": "ls", "grep_files": "grep",
}

func (codex) Decode(raw []byte) (Request, error) {
	var in claudeInput // Codex's hook input has Claude Code's field names
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
	switch {
	case in.ToolName == "apply_patch":
		patch := patchText(in.ToolInput)
		files := PatchFiles(patch)
		if len(files) == 0 {
			return Request{}, errors.New("apply_patch names no file")
		}
		for _, f := range files {
			req.Calls = append(req.Calls, facts.Call{Tool: f.Tool, Input: map[string]any{"path": f.Path}})
		}
	case codexTools[in.ToolName] == "bash":
		cmd, err := shellCommand(in.ToolInput["command"])
		if err != nil {
			return Request{}, err
		}
		req.Calls = []facts.Call{{Tool: "bash", Input: map[string]any{"command": cmd}}}
	default:
		call, ok := mcpCall(in.ToolName, in.ToolInput)
		if !ok {
			tool := codexTools[in.ToolName]
			if tool == "" {
				tool = in.ToolName
			}
			call = facts.Call{Tool: tool, Input: renamed(in.ToolInput, map[string]string{"file_path": "path", "dir_path": "path"})}
		}
		req.Calls = []facts.Call{call}
	}
	for i := range req.Calls {
		req.Calls[i].Agent = in.AgentType
	}
	return req, nil
}

func patchText(input map[string]any) string {
	for _, k := range []string{"input", "patch"} {
		if s, ok := input[k].(string); ok {
			return s
		}
	}
	if argv, ok := input["command"].([]any); ok && len(argv) == 2 && argv[0] == "apply_patch" {
		s, _ := argv[1].(string)
		return s
	}
	return ""
}

// shellCommand is the script a shell tool runs: a string as it is; an argv
// of a shell with -c or -lc, its script; any other argv, its words joined
// and quoted for the shell.
func shellCommand(v any) (string, error) {
	switch c := v.(type) {
	case string:
		return c, nil
	case []any:
		argv := make([]string, len(c))
		for i, a := range c {
			s, ok := a.(string)
			if !ok {
				return "", errors.New("the command holds a word that is not a string")
			}
			argv[i] = s
		}
		if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") && isShell(argv[0]) {
			return argv[2], nil
		}
		for i, a := range argv {
			argv[i] = shellQuote(a)
		}
		return strings.Join(argv, " "), nil
	}
	return "", errors.New("the shell tool has no command")
}

func isShell(p string) bool {
	base := p[strings.LastIndex(p, "/")+1:]
	return base == "bash" || base == "sh" || base == "zsh" || base == "dash"
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}[]*?!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (codex) Encode(req Request, d runtime.Decision) Answer {
	if req.Event == "PermissionRequest" {
		switch d.Action {
		case "allow":
			return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "allow"}}})
		case "deny":
			return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "deny", "message": reason(d)}}})
		}
		return Answer{}
	}
	if d.Action == "deny" {
		return jsonAnswer(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason(d)}})
	}
	return Answer{} // allow and ask: Codex's own approval flow decides
}

func (codex) Fail(_ Request, why string) Answer {
	return Answer{Stderr: "[regate] blocked: " + why + "\n", Exit: 2}
}

// A PatchFile is one file an apply_patch touches, as the regate tool that
// stands for it: write for an added file, edit for an updated, moved or
// deleted one.
type PatchFile struct {
	Tool, Path string
}

// PatchFiles lists the files of an apply_patch envelope ("*** Add File:",
// "*** Update File:", "*** Delete File:", "*** Move to:").
func PatchFiles(patch string) []PatchFile {
	var out []PatchFile
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for prefix, tool := range map[string]string{
			"*** Add File: ": "write", "*** Update File: ": "edit", "*** Delete File: ": "edit", "*** Move to: ": "write",
		} {
			if p, ok := strings.CutPrefix(line, prefix); ok && strings.TrimSpace(p) != "" {
				out = append(out, PatchFile{Tool: tool, Path: strings.TrimSpace(p)})
			}
		}
	}
	return out
}
