package hosts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// A Request is one hook invocation as regate reads it.
type Request struct {
	// Event is the host's hook event (PreToolUse, PermissionRequest,
	// BeforeTool).
	Event string
	// Calls are the regate calls the host's tool call stands for: one, or
	// one per file of a patch. The hook's answer is their most restrictive
	// decision.
	Calls     []facts.Call
	Cwd       string
	SessionID string
}

// An Answer is what the hook writes: stdout, stderr and the exit code.
type Answer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// A Codec reads one host's hook input and writes its answers.
type Codec interface {
	// Decode reads the host's hook JSON.
	Decode(raw []byte) (Request, error)
	// Encode answers a decision.
	Encode(req Request, d runtime.Decision) Answer
	// Fail answers a fault: the call is blocked, with reason.
	Fail(req Request, reason string) Answer
}

// Options are the choices a host leaves to the user.
type Options struct {
	// AskAs is what an ask becomes for a host that cannot ask (Gemini):
	// "deny" (the default) or "allow".
	AskAs string
}

// Lookup returns the codec of host: claude, codex or gemini.
func Lookup(host string, o Options) (Codec, error) {
	switch host {
	case "claude":
		return claude{}, nil
	case "codex":
		return codex{}, nil
	case "gemini":
		if o.AskAs != "" && o.AskAs != "deny" && o.AskAs != "allow" {
			return nil, fmt.Errorf("hosts: --ask %q: use deny or allow", o.AskAs)
		}
		return gemini{askAs: o.AskAs}, nil
	}
	return nil, fmt.Errorf("hosts: unknown host %q; use %s", host, strings.Join(Names(), ", "))
}

// Names are the hosts Lookup knows.
func Names() []string {
	names := []string{"claude", "codex", "gemini"}
	sort.Strings(names)
	return names
}

// severity orders actions, the most restrictive last.
var severity = map[string]int{"allow": 0, "ask": 1, "deny": 2}

// MostRestrictive is the decision a hook answers for several calls: the
// most restrictive, the first on a tie.
func MostRestrictive(ds []runtime.Decision) runtime.Decision {
	top := ds[0]
	for _, d := range ds[1:] {
		if severity[d.Action] > severity[top.Action] {
			top = d
		}
	}
	return top
}

// mcpCall maps a host's MCP tool name, mcp__SERVER__TOOL, to regate's mcp
// call; ok is false for any other name.
func mcpCall(name string, input map[string]any) (facts.Call, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return facts.Call{}, false
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return facts.Call{}, false
	}
	return facts.Call{Tool: "mcp", Input: map[string]any{"server": server, "tool": tool, "arguments": input}}, true
}

// renamed copies input with keys renamed (from → to), keeping the rest.
func renamed(input map[string]any, names map[string]string) map[string]any {
	out := make(map[string]any, len(input))
	for k, v := range input {
		if to, ok := names[k]; ok {
			if _, taken := input[to]; !taken {
				out[to] = v
				continue
			}
		}
		out[k] = v
	}
	return out
}

// reason is the one line a host shows for a decision.
func reason(d runtime.Decision) string {
	if d.Message != "" {
		return d.Message
	}
	return fmt.Sprintf("[regate] %s (matched %q)", d.Action, d.Matched)
}
