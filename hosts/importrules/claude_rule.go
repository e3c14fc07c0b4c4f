package importrules

import (
	"strings"
)

// claudeTools are the Claude Code tools whose rules regate can hold, with
// the surfaces a tool-wide rule (the bare name, "Tool()" or "Tool(*)")
// lands on: the regate tool each one's calls are decided as (hosts/claude.go).
// A tool not listed keeps its own name there, as the hook decides it.
var claudeTools = map[string][]string{
	"Bash": {"bash"}, "Read": {"read"}, "Write": {"write"}, "Edit": {"edit"}, "MultiEdit": {"edit"},
	"Glob": {"find"}, "Grep": {"grep"}, "LS": {"ls"}, "Agent": {"task"}, "Task": {"task"}, "Skill": {"skill"},
	"WebFetch": {"WebFetch"}, "WebSearch": {"WebSearch"}, "TodoWrite": {"TodoWrite"}, "LSP": {"LSP"},
	"TaskCreate": {"TaskCreate"}, "TaskGet": {"TaskGet"}, "TaskList": {"TaskList"}, "TaskUpdate": {"TaskUpdate"},
	"TaskOutput": {"TaskOutput"}, "BashOutput": {"BashOutput"}, "TaskStop": {"TaskStop"}, "KillShell": {"KillShell"},
	"ToolSearch": {"ToolSearch"}, "AskUserQuestion": {"AskUserQuestion"}, "EnterPlanMode": {"EnterPlanMode"},
	"ExitPlanMode": {"ExitPlanMode"}, "CronCreate": {"CronCreate"}, "ScheduleWakeup": {"ScheduleWakeup"},
	"RemoteTrigger": {"RemoteTrigger"}, "PushNotification": {"PushNotification"}, "SendMessage": {"SendMessage"},
	"EnterWorktree": {"EnterWorktree"},
	// These share a regate tool with another Claude Code tool, so a rule
	// on them reaches that tool too: a restriction may, an allow may not.
	"NotebookEdit": {"edit"}, "PowerShell": {"bash"}, "Monitor": {"bash"},
}

// sharedTools are the tools of claudeTools whose regate tool is another's.
var sharedTools = map[string]string{
	"NotebookEdit": "Edit", "PowerShell": "Bash", "Monitor": "Bash",
}

// claudeRule translates one entry of Claude Code's permissions.allow, ask
// or deny. settingsRoot is the folder holding the file's .claude folder,
// which a "/path" rule is relative to.
func claudeRule(from Pos, entry string, action Action, settingsRoot string) Rule {
	r := Rule{From: from, Text: entry, Action: action, order: claudeOrder(action)}
	tool, content, hasContent, bad := splitClaudeRule(entry)
	switch {
	case bad != "":
		r.Skipped = bad
		return r
	case strings.HasPrefix(tool, "mcp__"):
		return claudeMCP(r, tool, content, hasContent)
	}
	surfaces, known := claudeTools[tool]
	if !known {
		if !isRestrictive(action) {
			r.Skipped = "not a Claude Code tool regate knows; an allow of it is left out"
			return r
		}
		// A restriction on a tool regate does not know costs nothing:
		// kept on a surface of the tool's own name.
		surfaces = []string{tool}
		r.Note = "not a Claude Code tool regate knows; kept under its own name"
	}
	if other, ok := sharedTools[tool]; ok {
		if !isRestrictive(action) {
			r.Skipped = "regate decides " + tool + " as " + other + ", so the allow would reach " + other + " too"
			return r
		}
		r.Note = joinNotes(r.Note, "regate decides "+tool+" as "+other+", so it reaches "+other+" too")
	}
	if !hasContent {
		r.Targets = targets(action, denyReason(action, entry), surfaces, []string{"*"})
		return r
	}
	var t translation
	var why string
	switch tool {
	case "Bash", "PowerShell":
		t, why = claudeBash(content, isRestrictive(action))
	case "Read":
		t, why = claudePath(content, settingsRoot, isRestrictive(action))
		if isRestrictive(action) {
			// Claude Code holds Read rules against every tool that reads,
			// and against shell commands that name the file: regate's path
			// surface, which writes meet too.
			surfaces = []string{"path"}
			t.widen("regate's path surface also meets writes of the file")
		}
	case "Edit", "MultiEdit":
		// Edit rules gate every tool that edits (Write and NotebookEdit
		// too); regate's write surface also meets shell redirects.
		surfaces = []string{"edit", "write"}
		t, why = claudePath(content, settingsRoot, isRestrictive(action))
	case "Write", "NotebookEdit", "Glob", "Grep", "LS":
		if !isRestrictive(action) {
			r.Skipped = "Claude Code holds only Read(…) and Edit(…) path rules against files, so this allow grants nothing there"
			return r
		}
		t, why = claudePath(content, settingsRoot, true)
		t.widen("Claude Code itself ignores a path in " + tool + "(…); imported as the restriction it reads as")
	case "Skill":
		t = claudeName(content)
	default:
		if !isRestrictive(action) {
			r.Skipped = "regate's " + surfaces[0] + " rules cannot see what " + tool + "(" + content + ") names, so the allow would reach every call of it"
			return r
		}
		t = translation{patterns: []string{"*"}}
		t.widen("regate's " + surfaces[0] + " rules cannot see what (" + content + ") names: every " + tool + " call")
	}
	if why != "" {
		r.Skipped = why
		return r
	}
	note, why := t.settle(action)
	if why != "" {
		r.Skipped = why
		return r
	}
	r.Note = joinNotes(r.Note, note)
	r.Targets = targets(action, denyReason(action, entry), surfaces, t.patterns)
	return r
}

// claudeOrder is Claude Code's precedence: a deny beats an ask, an ask
// beats an allow, wherever they are written.
func claudeOrder(a Action) float64 { return float64(a.Severity() + 1) }

func denyReason(a Action, text string) string {
	if a != Deny {
		return ""
	}
	return "Claude Code's settings deny it (" + text + ")"
}

// splitClaudeRule reads "Tool" or "Tool(content)" the way Claude Code does
// (permissionRuleValueFromString): the content runs from the first "(" to
// a ")" that ends the entry, "\(" and "\)" are parentheses inside it, and
// "Tool()" and "Tool(*)" are the bare tool. An entry Claude Code would read
// as a tool name that holds parentheses is malformed here.
func splitClaudeRule(entry string) (tool, content string, hasContent bool, bad string) {
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return "", "", false, "an empty rule"
	}
	open := strings.IndexByte(entry, '(')
	if open < 0 {
		if strings.ContainsAny(entry, " )") {
			return "", "", false, "not a tool name or Tool(content)"
		}
		return entry, "", false, ""
	}
	if !strings.HasSuffix(entry, ")") || open == 0 {
		return "", "", false, "malformed: Claude Code reads it as a tool name no tool has"
	}
	tool, raw := entry[:open], entry[open+1:len(entry)-1]
	if raw == "" || raw == "*" {
		return tool, "", false, ""
	}
	raw = strings.NewReplacer(`\(`, "(", `\)`, ")").Replace(raw)
	return tool, raw, true, ""
}

// claudeBash translates the content of a Bash(…) rule. Claude Code reads
// "prefix:*" as the prefix and any continuation after a space ("git
// status:*": "git status", "git status -s"; text after a ":*" matches no
// command, and is reported rather than guessed), "*" anywhere as any run of
// characters with a lone trailing " *" optional ("git *" matches "git"),
// "\*" as a literal star, and anything else as the exact command. regate
// matches each command of a line after quote removal, with "*" any run and
// "?" one character, and any pattern ending in " *" matches the bare
// command too.
func claudeBash(content string, restrictive bool) (translation, string) {
	var t translation
	if strings.Contains(content, "&&") || strings.Contains(content, "||") || strings.ContainsAny(content, ";|") {
		return t, "it holds a chain operator, and neither Claude Code nor regate matches one command against it"
	}
	if i := strings.Index(content, ":*"); i >= 0 && i+2 < len(content) {
		// Claude Code reads ":*" as a prefix only at the end (its rule
		// parser: /^(.+):\*$/); with text after it the * is a wildcard
		// after a literal ":", so the rule matches almost no command.
		// Guessing what was meant could allow what the user never allowed.
		return t, "text after \":*\": Claude Code reads the * as a wildcard after a literal \":\", so its rule matches almost no command (\":*\" is a prefix only at the end); not guessed"
	}
	pattern := content
	if prefix, ok := strings.CutSuffix(content, ":*"); ok && prefix != "" {
		pattern = strings.TrimRight(prefix, " ") + " *"
		if strings.Contains(prefix, "*") {
			t.widen("a * in a prefix is literal in Claude Code, a wildcard in regate")
		}
	} else if strings.Contains(content, `\*`) {
		pattern = strings.ReplaceAll(content, `\*`, "*")
		t.widen(`a \* (a literal star) becomes a wildcard`)
	} else if stars := strings.Count(content, "*"); stars > 1 && strings.HasSuffix(content, " *") {
		t.widen("regate's trailing \" *\" also matches the bare command, Claude Code's only when it is the one *")
	}
	pattern = strings.ReplaceAll(pattern, `\\`, `\`)
	if strings.Contains(pattern, "?") {
		t.widen("? is literal in Claude Code, one character in regate")
	}
	if strings.ContainsAny(pattern, "'\"") {
		if !restrictive {
			return t, "it holds quotes, and regate matches commands after quote removal"
		}
		pattern = strings.NewReplacer("'", "", `"`, "").Replace(pattern)
		t.widen("quotes removed, as regate matches commands after quote removal")
	}
	t.patterns = []string{pattern}
	return t, ""
}

// claudeName translates a pattern of names (a skill's): "name:*" is a
// prefix, "*" any run, both as in regate.
func claudeName(content string) translation {
	if prefix, ok := strings.CutSuffix(content, ":*"); ok {
		return translation{patterns: []string{prefix + "*"}}
	}
	return translation{patterns: []string{content}}
}

// claudeMCP translates an MCP rule: "mcp__server" and "mcp__server__*" are
// every tool of the server (regate's mcp target "server"),
// "mcp__server__tool" one tool ("server:tool"). A content after an MCP tool
// is not something regate's mcp rules can see.
func claudeMCP(r Rule, tool, content string, hasContent bool) Rule {
	rest := strings.TrimPrefix(tool, "mcp__")
	server, name, _ := strings.Cut(rest, "__")
	var t translation
	switch {
	case server == "":
		r.Skipped = "an MCP rule names no server"
		return r
	case strings.Contains(server, "*"):
		t.patterns = []string{"*"}
		t.widen("a wildcard in the server name: every MCP tool")
	case name == "" || name == "*":
		t.patterns = []string{server}
	case strings.Contains(name, "*"):
		t.patterns = []string{server}
		t.widen("a wildcard in the tool name: every tool of " + server)
	default:
		t.patterns = []string{server + ":" + name}
	}
	if hasContent {
		t.widen("regate's mcp rules cannot see (" + content + "): every call of the tool")
	}
	note, why := t.settle(r.Action)
	if why != "" {
		r.Skipped = why
		return r
	}
	r.Note = note
	r.Targets = targets(r.Action, denyReason(r.Action, r.Text), []string{"mcp"}, t.patterns)
	return r
}
