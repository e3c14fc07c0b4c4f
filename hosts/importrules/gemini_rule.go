package importrules

import (
	"fmt"
	"strings"
)

// geminiSurfaces are the regate tools Gemini CLI's tools are decided as
// (hosts/gemini.go); any other tool keeps its own name.
var geminiSurfaces = map[string]string{
	"run_shell_command": "bash", "ShellTool": "bash",
	"read_file": "read", "read_many_files": "read", "write_file": "write", "replace": "edit",
	"glob": "find", "grep_search": "grep", "search_file_content": "grep", "list_directory": "ls",
	"activate_skill": "skill", "invoke_agent": "task",
}

// A geminiPolicy is one [[rule]] of a Gemini CLI policy file, or one rule a
// settings.json entry stands for, with the fields regate reads.
type geminiPolicy struct {
	from          Pos
	text          string
	decision      string
	order         float64
	toolNames     []string
	mcpName       string
	commandPrefix []string
	commandRegex  string
	argsPattern   string
	denyMessage   string
	modes         []string
	// interactive is "true", "false" or "" (both).
	interactive string
	subagent    string
	annotations bool
	// argsIgnored: a settings entry Tool(args) of a tool that is not the
	// shell, whose args Gemini CLI ignores.
	argsIgnored bool
}

// geminiRule translates one Gemini CLI rule. The host applies the matching
// rule of highest priority (order); resolve holds the imported allows to
// that.
func geminiRule(g geminiPolicy) Rule {
	r := Rule{From: g.from, Text: g.text, order: g.order}
	switch g.decision {
	case "allow":
		r.Action = Allow
	case "deny":
		r.Action = Deny
	case "ask_user":
		r.Action = Ask
	default:
		r.Skipped = fmt.Sprintf("decision %q is not allow, deny or ask_user", g.decision)
		return r
	}
	restrictive := isRestrictive(r.Action)
	if len(g.modes) > 0 && !contains(g.modes, "default") {
		r.Skipped = "it applies only in approval modes " + strings.Join(g.modes, ", ") + ", not the default one regate stands for"
		return r
	}
	var t translation
	if g.interactive == "false" {
		t.widen("Gemini CLI applies it only without a terminal (headless)")
	}
	if g.subagent != "" {
		t.widen("Gemini CLI applies it only to the subagent " + g.subagent)
	}
	if g.annotations {
		t.widen("regate's rules cannot see the tool's annotations")
	}
	reason := g.denyMessage
	if reason == "" && r.Action == Deny {
		reason = "Gemini CLI's rules deny it (" + g.text + ")"
	}
	var out []Target
	shell := len(g.commandPrefix) > 0 || g.commandRegex != ""
	names := g.toolNames
	if len(names) == 0 && shell {
		names = []string{"run_shell_command"}
	}
	if g.mcpName != "" {
		pats, why := geminiMCPServer(g.mcpName, names, &t)
		if why != "" {
			r.Skipped = why
			return r
		}
		out = append(out, targets(r.Action, reason, []string{"mcp"}, pats)...)
		names = nil
	}
	if len(names) == 0 && g.mcpName == "" {
		r.Skipped = "it names no tool"
		return r
	}
	for _, name := range names {
		surface, pats, why := geminiTool(name, g, restrictive, &t)
		if why != "" {
			r.Skipped = why
			if restrictive && surface != "" {
				r.reach = []string{surface}
			}
			return r
		}
		out = append(out, targets(r.Action, reason, []string{surface}, pats)...)
	}
	note, why := t.settle(r.Action)
	if why != "" {
		r.Skipped = why
		return r
	}
	r.Note, r.Targets = note, out
	return r
}

// geminiMCPServer is the mcp patterns of mcpName with toolName(s).
func geminiMCPServer(server string, names []string, t *translation) ([]string, string) {
	if server == "*" {
		return []string{"*"}, ""
	}
	if strings.Contains(server, "*") {
		return nil, "a wildcard inside an MCP server name is not something Gemini CLI reads"
	}
	if len(names) == 0 {
		return []string{server}, ""
	}
	var pats []string
	for _, n := range names {
		switch {
		case n == "*":
			pats = append(pats, server)
		case strings.Contains(n, "*"):
			pats = append(pats, server)
			t.widen("a wildcard in the tool name: every tool of " + server)
		default:
			pats = append(pats, server+":"+n)
		}
	}
	return pats, ""
}

// geminiTool is the surface and patterns for one toolName of a rule.
func geminiTool(name string, g geminiPolicy, restrictive bool, t *translation) (string, []string, string) {
	if name == "*" {
		if len(g.commandPrefix) > 0 || g.commandRegex != "" || g.argsPattern != "" {
			return "", nil, "a rule on every tool with an argument condition has no regate form"
		}
		if !restrictive {
			t.narrow("regate's \"*\" is only the fallback: tools with rules of their own keep them")
			return "*", []string{"*"}, ""
		}
		if g.decision == "ask_user" {
			return "", nil, "an ask on every tool has no regate form: the starter's own rules would still allow some tools"
		}
		return "*", []string{"*"}, ""
	}
	if rest, ok := strings.CutPrefix(name, "mcp_"); ok {
		return "mcp", geminiMCPName(rest, t), ""
	}
	if strings.Contains(name, "*") {
		return "", nil, "a wildcard in a tool name is not something Gemini CLI reads outside MCP names"
	}
	surface := name
	if s, ok := geminiSurfaces[name]; ok {
		surface = s
	}
	if g.argsIgnored {
		t.widen("Gemini CLI ignores the (args) of a tool that is not the shell: every call of " + name)
	}
	args := g.argsPattern
	if surface == "bash" {
		if rest, ok := strings.CutPrefix(args, `"command":"`); ok && g.commandRegex == "" {
			g.commandRegex, args = rest, ""
		}
	}
	switch {
	case len(g.commandPrefix) > 0:
		if surface != "bash" {
			return "", nil, "commandPrefix is for run_shell_command"
		}
		var pats []string
		for _, p := range g.commandPrefix {
			tr, why := claudeBash(strings.TrimRight(p, " ")+":*", restrictive)
			if why != "" {
				return surface, nil, why
			}
			t.wider = append(t.wider, tr.wider...)
			pats = append(pats, tr.patterns...)
		}
		return surface, pats, ""
	case g.commandRegex != "":
		lit, whole := regexLiteralPrefix(g.commandRegex)
		if !whole {
			if !restrictive {
				return surface, nil, "a regular expression has no regate form"
			}
			if lit == "" {
				return surface, nil, "its regular expression has no literal start, so the only wider deny would be every command"
			}
			t.widen(fmt.Sprintf("every command starting %q", lit))
		}
		return surface, []string{lit + "*"}, ""
	case args != "":
		if !restrictive {
			return surface, nil, "an argsPattern has no regate form"
		}
		if surface == "bash" {
			return surface, nil, "an argsPattern has no regate form, and the only wider deny would be every command"
		}
		t.widen("regate's rules cannot read argsPattern: every call of " + name)
	}
	return surface, []string{"*"}, ""
}

// geminiMCPName reads a fully qualified MCP tool name after "mcp_":
// "server_tool", "server_*", "*" or "*_tool". Gemini CLI splits it at the
// first "_".
func geminiMCPName(rest string, t *translation) []string {
	if rest == "*" {
		return []string{"*"}
	}
	server, tool, ok := strings.Cut(rest, "_")
	switch {
	case !ok:
		return []string{server}
	case server == "*" && tool != "*":
		return []string{"*:" + tool}
	case tool == "*":
		return []string{server}
	case strings.Contains(server+tool, "*"):
		t.widen("a wildcard inside an MCP name: every tool of the server")
		return []string{server}
	}
	return []string{server + ":" + tool}
}

// regexLiteralPrefix is the literal text a regular expression starts with,
// and whether that is the whole expression.
func regexLiteralPrefix(re string) (string, bool) {
	depth := 0
	for i := 0; i < len(re); i++ {
		switch re[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				return "", false // "a|b" shares no start
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		c := re[i]
		if strings.IndexByte(`\.^$|?*+()[]{}`, c) >= 0 {
			// A quantifier applies to the character before it.
			if strings.IndexByte("?*{", c) >= 0 && b.Len() > 0 {
				s := b.String()
				return s[:len(s)-1], false
			}
			return b.String(), false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
