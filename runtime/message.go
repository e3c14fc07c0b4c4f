package runtime

import (
	"fmt"
	"strings"
)

// message renders what the agent is shown, in the spec's form (R15). It is
// the Go twin of regate.lib.message.message: the hot path builds the text
// here rather than in Rego, and TestAgreement in internal/conformance
// holds the two to each other on every conformance case.
func message(d Decision, tool, agent string) string {
	switch d.Layer {
	case "registry":
		return fmt.Sprintf("[regate] tool '%s' is not registered in this session; it is blocked before any rule.", tool)
	case "fault":
		return "[regate] regate reached no decision for this call; it is blocked."
	}
	subject := "the agent"
	if agent != "" {
		subject = fmt.Sprintf("agent '%s'", agent)
	}
	noun, ok := messageNouns[d.Surface]
	if !ok {
		noun = "with"
	}
	verb := messageVerbs[d.Action]
	var b strings.Builder
	fmt.Fprintf(&b, "[regate] %s %s '%s' %s '%s'", subject, verb, tool, noun, d.Value)
	if d.Origin != "" {
		fmt.Fprintf(&b, " (%s)", d.Origin)
	}
	if d.Matched != "" {
		fmt.Fprintf(&b, " (matched '%s')", d.Matched)
	} else {
		b.WriteString(" (no rule matched; the built-in fallback asks)")
	}
	b.WriteByte('.')
	if d.Reason != "" {
		fmt.Fprintf(&b, " Reason: %s.", strings.TrimRight(d.Reason, "."))
	}
	return b.String()
}

// The words of the message, as regate.lib.message has them (nouns, verbs).
var (
	messageNouns = map[string]string{"bash": "command", "path": "on path", "mcp": "on target", "skill": "skill"}
	messageVerbs = map[string]string{"deny": "is not permitted to run", "ask": "needs approval to run", "allow": "may run"}
)
