package hosts

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// hookEvents are the events each host's hook is registered for.
var hookEvents = map[string][]string{
	"claude": {"PreToolUse", "PermissionRequest"},
	"codex":  {"PreToolUse", "PermissionRequest"},
	"gemini": {"BeforeTool"},
}

// SettingsPath is the file a host reads its hooks from: the user's, or the
// project's under dir when project is set.
func SettingsPath(host, home, dir string, project bool) (string, error) {
	rel := map[string]string{"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}[host]
	if rel == "" {
		return "", fmt.Errorf("hosts: unknown host %q; use %s", host, strings.Join(Names(), ", "))
	}
	if project {
		return filepath.Join(dir, rel), nil
	}
	return filepath.Join(home, rel), nil
}

// Install merges regate's hook, running command for every tool, into a
// host's settings document (empty: none yet) and returns the document.
// The user's other settings and hooks are kept; an earlier regate hook
// (a command that runs "regate hook") is replaced, so installing twice
// changes nothing.
func Install(host string, settings []byte, command string) ([]byte, error) {
	events, ok := hookEvents[host]
	if !ok {
		return nil, fmt.Errorf("hosts: unknown host %q; use %s", host, strings.Join(Names(), ", "))
	}
	doc := map[string]any{}
	if len(strings.TrimSpace(string(settings))) > 0 {
		if err := json.Unmarshal(settings, &doc); err != nil {
			return nil, fmt.Errorf("hosts: the settings are not JSON, so regate leaves them alone: %w", err)
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	for _, event := range events {
		var kept []any
		list, _ := hooks[event].([]any)
		for _, group := range list {
			if !isRegateGroup(group) {
				kept = append(kept, group)
			}
		}
		kept = append(kept, map[string]any{
			"matcher": "*",
			"hooks":   []any{map[string]any{"type": "command", "command": command, "timeout": 30}},
		})
		hooks[event] = kept
	}
	doc["hooks"] = hooks
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// isRegateGroup reports whether a matcher group runs regate's hook.
func isRegateGroup(group any) bool {
	g, _ := group.(map[string]any)
	hs, _ := g["hooks"].([]any)
	for _, h := range hs {
		m, _ := h.(map[string]any)
		if c, _ := m["command"].(string); strings.Contains(c, "regate hook") {
			return true
		}
	}
	return false
}
