package hosts

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// gemini is Gemini CLI's BeforeTool hook, which answers {"decision":
// "allow"|"deny", "reason"}. Gemini cannot ask: an ask becomes a deny that
// says so (or, with --ask allow, an allow).
type gemini struct {
	askAs string
}

// geminiTools maps Gemini CLI's tools to regate's, with their path keys.
var geminiTools = map[string]struct {
	tool string
	keys map[string]string
}{
	"run_shell_command":   {"bash", nil},
	"read_file":           {"read", map[string]string{"absolute_path": "path", "file_path": "path"}},
	"read_many_files":     {"read", nil},
	"write_file":          {"write", map[string]string{"file_path": "path"}},
	"replace":             {"edit", map[string]string{"file_path": "path"}},
	"glob":                {"find", nil},
	"search_file_content": {"grep", nil},
	"list_directory":      {"ls", nil},
}

func (gemini) Decode(raw []byte) (Request, error) {
	var in claudeInput // the same field names: session_id, cwd, hook_event_name, tool_name, tool_input
	if err := json.Unmarshal(raw, &in); err != nil {
		return Request{}, fmt.Errorf("the hook input is not JSON: %w", err)
	}
	if in.ToolName == "" {
		return Request{}, errors.New("the hook input names no tool_name")
	}
	req := Request{Event: "BeforeTool", Cwd: in.Cwd, SessionID: in.SessionID}
	call, ok := mcpCall(in.ToolName, in.ToolInput)
	if !ok {
		t, known := geminiTools[in.ToolName]
		if !known {
			t.tool = in.ToolName
		}
		call = facts.Call{Tool: t.tool, Input: renamed(in.ToolInput, t.keys)}
	}
	call.Agent = in.AgentType
	req.Calls = []facts.Call{call}
	return req, nil
}

func (g gemini) Encode(_ Request, d runtime.Decision) Answer {
	switch d.Action {
	case "allow":
		return jsonAnswer(map[string]any{"decision": "allow", "reason": reason(d)})
	case "ask":
		if g.askAs == "allow" {
			return jsonAnswer(map[string]any{"decision": "allow", "reason": reason(d) + " (Gemini CLI cannot ask; allowed by --ask allow)"})
		}
		return jsonAnswer(map[string]any{"decision": "deny", "reason": reason(d) + " Gemini CLI cannot ask, so regate denies it; run it yourself or allow it in the policy."})
	}
	return jsonAnswer(map[string]any{"decision": "deny", "reason": reason(d)})
}

func (gemini) Fail(_ Request, why string) Answer {
	a := jsonAnswer(map[string]any{"decision": "deny", "reason": "[regate] blocked: " + why})
	a.Stderr, a.Exit = "[regate] blocked: "+why+"\n", 2
	return a
}
