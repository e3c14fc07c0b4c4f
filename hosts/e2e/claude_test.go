package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

// Claude Code: -p headless, the Anthropic API at ANTHROPIC_BASE_URL, the
// fake MCP server through --mcp-config; regate install claude writes
// PreToolUse and PermissionRequest into ~/.claude/settings.json.
func TestClaude(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:     "claude",
		bin:      "claude",
		settings: ".claude/settings.json",
		pkg:      "@anthropic-ai/claude-code",
		timeout:  60 * time.Second,
		wire:     anthropicWire,
		pick:     pickClaude,
		edit: func(r *hostRun, c toolCall) []wireCall {
			// Claude Code edits only a file read in the session.
			path := filepath.Join(r.work, c.file)
			return []wireCall{
				{name: "Read", args: map[string]any{"file_path": path}},
				{name: "Edit", args: map[string]any{"file_path": path, "old_string": c.old, "new_string": c.content}},
			}
		},
		unsupported: func(sc scenario) string {
			if sc.name == "self-unregister" {
				// Seen in 2.1.332: "Claude requested permissions to write
				// to …/.claude/settings.json, but you haven't granted it
				// yet", with no hook call. regate's floor stands behind it.
				return "Claude Code refuses a write to its own settings before any hook runs"
			}
			return ""
		},
		configure: func(r *hostRun, sc scenario) {
			r.setenv("ANTHROPIC_BASE_URL", r.url)
			r.setenv("ANTHROPIC_API_KEY", "sk-e2e-fake")
			r.setenv("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
			r.setenv("DISABLE_AUTOUPDATER", "1")
			// 2.1.332 defers MCP tools behind ToolSearch; standard mode
			// offers them to the model directly.
			r.setenv("ENABLE_TOOL_SEARCH", "false")
			r.writeJSON(filepath.Join(r.home, "mcp.json"), map[string]any{
				"mcpServers": map[string]any{
					"fake": map[string]any{"type": "stdio", "command": fakeMCPBin, "args": []string{r.work}},
				},
			})
		},
		argv: func(r *hostRun) []string {
			argv := []string{"claude", "-p", "go", "--output-format", "stream-json", "--verbose",
				"--mcp-config", filepath.Join(r.home, "mcp.json")}
			if !r.sc.runs {
				// Where regate must block, Claude Code itself would let the
				// call run: only regate stands in the way. Where regate
				// allows, Claude Code's own default (no permission to run
				// anything in -p) must be lifted by regate's allow.
				argv = append(argv, "--allowedTools", "Bash,Read,Write,Edit,mcp__fake__touch,mcp__fake__touch_denied")
			}
			return argv
		},
	})
}
