package importrules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/regate/regate/compiler/action"
)

// An Action is what a rule decides, in regate's words: action.Action,
// whose order of restriction is the one regate decides by.
type Action = action.Action

// The actions of imported rules.
const (
	Allow = action.Allow
	Ask   = action.Ask
	Deny  = action.Deny
)

// isRestrictive reports whether the action limits what the agent may do: an
// import may widen such a rule, never narrow it (and an allow the other
// way round).
func isRestrictive(a Action) bool { return a.Stricter(Allow) }

// A Pos is where a host rule is written: file, line and column (both from
// 1; the column counts bytes).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// posAt is the position of byte offset off in src.
func posAt(file string, src []byte, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for _, b := range src[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return Pos{File: file, Line: line, Col: col}
}

// A Target is one regate rule an import writes: a pattern of one surface,
// in policy.jsonc or (HardGuard) in hard-guards.jsonc.
type Target struct {
	HardGuard bool
	Surface   string
	Pattern   string
	Action    Action
	// Reason is a deny's reason, shown to the agent.
	Reason string
}

// File is the rule file the target goes to.
func (t Target) File() string {
	if t.HardGuard {
		return "hard-guards.jsonc"
	}
	return "policy.jsonc"
}

// A Rule is one host rule and what the import made of it: the targets, or
// (none) why it was left out. Note says where the targets' meaning differs
// from the host's.
type Rule struct {
	From Pos
	// Text is the rule as written in the host's file (for a TOML or
	// Starlark rule, a short rendering of it).
	Text string
	// Action is the host's decision in regate's words.
	Action  Action
	Targets []Target
	Note    string
	// Skipped says why nothing was imported; empty when Targets holds the
	// rule.
	Skipped string
	// order is the host's precedence: of two overlapping rules, the one
	// with the higher order decides in the host (a tie: either may).
	order float64
	// reach are the surfaces a restriction that was left out would have
	// restricted: an allow there is left out too (resolve).
	reach []string
}

// A Result is everything an import found, in the order of the host's files.
type Result struct {
	Host  string
	Files []string
	Rules []Rule
	// Notes are settings that are not rules (a permission mode, an
	// approval policy) and what regate does instead.
	Notes []string
	// home expands "~" when rules are compared (resolve).
	home string
}

// Hosts are the hosts Import reads.
func Hosts() []string { return []string{"claude", "codex", "gemini"} }

// Import reads host's permission rules from the user's files (under home)
// and the project's (under dir) and translates them. A file that does not
// exist is skipped; one that cannot be read or parsed is an error.
func Import(host, home, dir string) (Result, error) {
	switch host {
	case "claude":
		return Claude(ClaudeFiles(home, dir), home)
	case "gemini":
		return Gemini(GeminiFiles(home, dir), home)
	case "codex":
		return Codex(CodexFiles(home, dir), home)
	}
	return Result{}, fmt.Errorf("importrules: no importer for %q; use %s", host, strings.Join(Hosts(), ", "))
}

// Imported are the rules with targets.
func (r Result) Imported() []Rule {
	var out []Rule
	for _, x := range r.Rules {
		if len(x.Targets) > 0 {
			out = append(out, x)
		}
	}
	return out
}

// LeftOut are the rules that were not imported.
func (r Result) LeftOut() []Rule {
	var out []Rule
	for _, x := range r.Rules {
		if len(x.Targets) == 0 {
			out = append(out, x)
		}
	}
	return out
}

// Describe is one line naming a rule's targets: `bash "git status *"`,
// two patterns of a surface as `path ".env", ".env/*"`.
func (x Rule) Describe() string {
	type key struct {
		file, surface string
		action        Action
	}
	var order []key
	pats := map[key][]string{}
	for _, t := range x.Targets {
		k := key{t.File(), t.Surface, t.Action}
		if _, ok := pats[k]; !ok {
			order = append(order, k)
		}
		pats[k] = append(pats[k], fmt.Sprintf("%q", t.Pattern))
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s %s %s: %s", k.file, k.surface, strings.Join(pats[k], ", "), k.action))
	}
	return strings.Join(parts, "; ")
}

// sortRules orders rules by file and position, so output is stable
// whatever order the files were listed in.
func sortRules(rules []Rule) {
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i].From, rules[j].From
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// skip is a rule left out, with why.
func skip(from Pos, text string, action Action, why string) Rule {
	return Rule{From: from, Text: text, Action: action, Skipped: why}
}

// targets builds the targets of one action for patterns on surfaces. A deny
// goes to the hard guards: in every host regate imports from, a deny rule
// is final (Claude Code and Codex: deny beats any allow; Gemini CLI: see
// resolve), as a hard guard is in regate.
func targets(action Action, reason string, surfaces []string, patterns []string) []Target {
	var out []Target
	for _, s := range surfaces {
		for _, p := range patterns {
			out = append(out, Target{HardGuard: action == Deny, Surface: s, Pattern: p, Action: action, Reason: reason})
		}
	}
	return out
}

// joinNotes joins the notes that are not empty.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}
