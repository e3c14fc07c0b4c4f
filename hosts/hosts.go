package hosts

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/jsonwords"
	"github.com/regate/regate/runtime"
)

// A Request is one hook invocation as regate reads it.
type Request struct {
	// Event is the host's hook event (PreToolUse, PermissionRequest,
	// BeforeTool, preToolUse, tool.execute.before). Decode fills it even
	// when it fails, as far as the input shows it, so that Fail answers in
	// the shape the event needs.
	Event string
	// Calls are the regate calls the host's tool call stands for: one, or
	// one per file of a patch or per path of a multi-file read. The hook's
	// answer is their most restrictive decision.
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
	// Decode reads the host's hook JSON. For an event that gates no tool
	// call it returns ErrOtherEvent, to be answered with Pass.
	Decode(raw []byte) (Request, error)
	// Encode answers a decision.
	Encode(req Request, d runtime.Decision) Answer
	// Fail answers a fault: the call is blocked, with reason.
	Fail(req Request, reason string) Answer
}

// ErrOtherEvent is Decode's error for a hook event that gates no tool
// call: one that fires after the tool ran (Claude Code's and Codex's
// PostToolUse, Gemini CLI's AfterTool, Copilot CLI's postToolUse, OpenCode's
// tool.execute.after) or about no tool at all (Stop, UserPromptSubmit,
// SessionStart, …), reaching regate's hook when it is registered for more
// events than it decides. Blocking such an event would not undo a call
// and could stop the session (an exit 2 on Stop keeps the agent going), and
// answering in PreToolUse's shape is a malformed answer: the hook answers
// nothing (Pass), and every host carries on as it would without the hook.
var ErrOtherEvent = errors.New("regate decides tool calls before they run; this event gates none")

func otherEvent(event string) error {
	return fmt.Errorf("hook event %q: %w", event, ErrOtherEvent)
}

// Pass is the answer to ErrOtherEvent: nothing on stdout and exit 0, the
// answer of a hook with no opinion in every host; stderr says why, for
// the host's debug log.
func Pass(err error) Answer {
	return Answer{Stderr: "[regate] " + err.Error() + ": no answer\n"}
}

// Options are the choices a host leaves to the user.
type Options struct {
	// AskAs is what an ask becomes for Gemini CLI: "auto" (the default: an
	// ask when Attended, else a deny, since a headless Gemini CLI waits
	// forever on its dialog), "ask" (Gemini CLI asks the user since March
	// 2026), or "deny" or "allow" for releases that ignore an ask and run
	// the call.
	AskAs string
	// Attended reports that a person can answer the host's dialog: the
	// hook has a controlling terminal.
	Attended bool
}

// codecs are the hosts whose command hook (or plugin) regate answers. Pi is
// not here: its extension talks to regate serve.
var codecs = map[string]func(Options) (Codec, error){
	"claude":   func(Options) (Codec, error) { return claude{}, nil },
	"codex":    func(Options) (Codec, error) { return codex{}, nil },
	"copilot":  func(Options) (Codec, error) { return copilot{servers: copilotServers}, nil },
	"gemini":   newGemini,
	"opencode": func(Options) (Codec, error) { return opencode{}, nil },
}

// Lookup returns the codec of host: claude, codex, copilot, gemini or
// opencode.
func Lookup(host string, o Options) (Codec, error) {
	if c, ok := codecs[host]; ok {
		return c(o)
	}
	return nil, fmt.Errorf("hosts: unknown host %q; use %s", host, strings.Join(Names(), ", "))
}

// Names are the hosts Lookup knows, sorted.
func Names() []string {
	names := make([]string, 0, len(codecs))
	for n := range codecs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// MostRestrictive is the decision a hook answers for several calls: the
// most restrictive (action.Action's order), the first on a tie.
func MostRestrictive(ds []runtime.Decision) runtime.Decision {
	top := ds[0]
	for _, d := range ds[1:] {
		if d.Action.Stricter(top.Action) {
			top = d
		}
	}
	return top
}

// mcpCall maps a Claude-style MCP tool name, mcp__SERVER__TOOL, to regate's
// mcp call; ok is false for any other name. The server is the first segment
// (Claude Code's plugin servers are mcp__plugin_PLUGIN_SERVER__TOOL, so their
// server is plugin_PLUGIN_SERVER); the tool is the rest, which may hold "__".
func mcpCall(name string, input map[string]any) (facts.Call, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return facts.Call{}, false
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return facts.Call{}, false
	}
	return mcp(server, tool, input), true
}

func mcp(server, tool string, input map[string]any) facts.Call {
	if input == nil {
		input = map[string]any{}
	}
	return facts.Call{Tool: "mcp", Input: map[string]any{"server": server, "tool": tool, "arguments": input}}
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

// eventField finds hook_event_name in input that may not parse, so that a
// fault is answered in the shape its event needs (Claude Code ignores exit 2
// for PermissionRequest).
var eventField = regexp.MustCompile(`"hook_event_name"\s*:\s*"([A-Za-z._]+)"`)

// sniffEvent is the event a broken hook input names, or "".
func sniffEvent(raw []byte) string {
	if m := eventField.FindSubmatch(raw); m != nil {
		return string(m[1])
	}
	return ""
}

// A toolSpec is how one host tool becomes regate calls. Each host keeps
// its tools in one table of these.
type toolSpec struct {
	// tool is the regate tool; "" keeps the host's own name, so that a
	// policy key such as "TodoWrite" decides the host's bookkeeping tools.
	tool string
	// keys renames input keys, host key → regate key.
	keys map[string]string
	// each names keys that hold several paths (a string or an array of
	// strings): the call becomes one call per path, each as "path".
	each []string
}

// calls maps one host tool call by its spec.
func (t toolSpec) calls(name string, input map[string]any) []facts.Call {
	tool := t.tool
	if tool == "" {
		tool = name
	}
	if input == nil {
		input = map[string]any{}
	}
	base := renamed(input, t.keys)
	var paths []any
	for _, k := range t.each {
		switch v := base[k].(type) {
		case []any:
			paths = append(paths, v...)
		case nil:
		default:
			paths = append(paths, v)
		}
		delete(base, k)
	}
	if len(paths) == 0 {
		if len(t.each) > 0 {
			base = renamed(input, t.keys) // nothing to fan out: decided as given, which asks
		}
		return []facts.Call{{Tool: tool, Input: base}}
	}
	out := make([]facts.Call, 0, len(paths))
	for _, p := range paths {
		in := make(map[string]any, len(base)+1)
		for k, v := range base {
			in[k] = v
		}
		in["path"] = p // a value that is not a string is decided as malformed
		out = append(out, facts.Call{Tool: tool, Input: in})
	}
	return out
}

// withAgent sets the agent of every call.
func withAgent(calls []facts.Call, agent string) []facts.Call {
	for i := range calls {
		calls[i].Agent = agent
	}
	return calls
}

// inputProblem words why a hook input could not be decoded: JSON that is
// not well formed as encoding/json says it, a value of the wrong kind in
// JSON's own words ("tool_name" is an array; it must be a string), never
// Go's struct and type names.
func inputProblem(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("the hook input is not in the host's shape: %w", jsonwords.Problem(err))
	}
	return fmt.Errorf("the hook input is not JSON: %w", err)
}
