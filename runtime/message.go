package runtime

import (
	"fmt"
	"strings"

	"github.com/regate/regate/compiler/action"
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
	noun, ok := messageNouns[d.Surface]
	if !ok {
		noun = "with"
	}
	reason := strings.TrimRight(d.Reason, ".")
	// One buffer sized for the whole text: a message costs one allocation.
	var b strings.Builder
	b.Grow(128 + len(agent) + len(tool) + len(d.Value) + len(d.Origin) + len(d.Matched) + len(reason))
	b.WriteString("[regate] ")
	if agent != "" {
		b.WriteString("agent '")
		b.WriteString(agent)
		b.WriteString("'")
	} else {
		b.WriteString("the agent")
	}
	for _, s := range [...]string{" ", messageVerbs[d.Action], " '", tool, "' ", noun, " '", d.Value, "'"} {
		b.WriteString(s)
	}
	if d.Origin != "" {
		b.WriteString(" (")
		b.WriteString(d.Origin)
		b.WriteString(")")
	}
	if d.Matched != "" {
		b.WriteString(" (matched '")
		b.WriteString(d.Matched)
		if d.Layer == "session" {
			// The agent, and the person reading its transcript, learn that
			// a person's approval let this through, not the policy.
			b.WriteString("', approved for this session)")
		} else {
			b.WriteString("')")
		}
	} else {
		b.WriteString(" (no rule matched; the built-in fallback asks)")
	}
	b.WriteByte('.')
	if d.Reason != "" {
		b.WriteString(" Reason: ")
		b.WriteString(reason)
		b.WriteByte('.')
	}
	return b.String()
}

// The words of the message, as regate.lib.message has them (nouns, verbs).
var (
	messageNouns = map[string]string{"bash": "command", "path": "on path", "mcp": "on target", "skill": "skill"}
	messageVerbs = map[action.Action]string{action.Deny: "is not permitted to run", action.Ask: "needs approval to run", action.Allow: "may run"}
)
