package ask

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/regate/regate/internal/printable"
	"github.com/regate/regate/runtime"
)

// A PromptLine is one line of a permission prompt: a fact of the request
// (never dropped, though a budget may shorten it) or evidence (what gives
// way first).
type PromptLine struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Fact  bool   `json:"fact"`
}

// Prompt is what a permission prompt shows, as data.
type Prompt struct {
	Lines []PromptLine `json:"lines"`
	// Elided is set when a line was shortened or evidence dropped: the host
	// offers the complete request (Ctrl+O in Pi's TUI).
	Elided bool `json:"elided"`
}

// BuildPrompt renders an ask as prompt facts (the spec's "What a prompt
// shows"): the requesting agent (and, for a forwarded ask, its session),
// the tool, the surface, the matched rule, the decision-relevant value and,
// for a wrapper, the command that will actually run;
// a fact the line above states is not repeated (a bash ask has no surface
// line; a path ask's value line is named path). Evidence (the whole
// command a unit came from, the working directory, the tool-input
// preview with sensitive keys masked) fills the rows left under maxRows.
// Every value is bounded by maxWidth runes and an ellipsis marks what was
// shortened or dropped.
func BuildPrompt(ask Ask, cwd string, maxRows, maxWidth int) Prompt {
	d := ask.Decision
	agent := ask.Call.Agent
	if agent == "" {
		agent = "main"
	}
	facts := []PromptLine{{Key: "agent", Value: agent, Fact: true}}
	if ask.Forwarded != "" {
		facts = append(facts, PromptLine{Key: "session", Value: ask.Forwarded, Fact: true})
	}
	facts = append(facts, PromptLine{Key: "tool", Value: ask.Call.Tool, Fact: true})
	valueKey := map[string]string{"bash": "command", "path": "path", "mcp": "target", "skill": "skill"}[d.Surface]
	if valueKey == "" {
		valueKey = "value"
	}
	if d.Surface != ask.Call.Tool && d.Surface != "path" && d.Surface != "" {
		facts = append(facts, PromptLine{Key: "surface", Value: d.Surface, Fact: true})
	}
	facts = append(facts, PromptLine{Key: "rule", Value: d.Matched, Fact: true}, PromptLine{Key: valueKey, Value: d.Value, Fact: true})
	if ask.Runs != "" && ask.Runs != d.Value {
		facts = append(facts, PromptLine{Key: "runs", Value: ask.Runs, Fact: true})
	}
	var evidence []PromptLine
	if cmd, ok := ask.Call.Input["command"].(string); ok && cmd != d.Value {
		evidence = append(evidence, PromptLine{Key: "from", Value: cmd})
	}
	if cwd != "" {
		evidence = append(evidence, PromptLine{Key: "cwd", Value: cwd})
	}
	if len(ask.Call.Input) > 0 && d.Surface != "bash" {
		preview, _ := json.Marshal(runtime.Masked(ask.Call.Input))
		evidence = append(evidence, PromptLine{Key: "input", Value: string(preview)})
	}
	p := Prompt{}
	for _, l := range facts {
		p.add(l, maxWidth)
	}
	for i, l := range evidence {
		if maxRows > 0 && len(p.Lines) >= maxRows {
			p.Elided = true
			p.Lines = append(p.Lines, PromptLine{Key: "…", Value: itoa(len(evidence)-i) + " more"})
			break
		}
		p.add(l, maxWidth)
	}
	return p
}

func (p *Prompt) add(l PromptLine, maxWidth int) {
	if maxWidth > 0 && utf8.RuneCountInString(l.Value) > maxWidth {
		l.Value = printable.Shorten(l.Value, maxWidth)
		p.Elided = true
	}
	p.Lines = append(p.Lines, l)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
