package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// GitHub Copilot CLI: -p headless, no GitHub account: its BYOK provider
// (COPILOT_PROVIDER_BASE_URL, an OpenAI-compatible chat-completions
// endpoint) with COPILOT_OFFLINE=true, which turns off GitHub sign-in,
// telemetry and auto-update; the fake MCP server in
// $COPILOT_HOME/mcp-config.json; every tool allowed by Copilot itself
// (--allow-all-tools), so only regate stands in the way. regate install
// copilot writes $COPILOT_HOME/hooks/regate.json.
func TestCopilot(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:     "copilot",
		bin:      "copilot",
		settings: ".copilot/hooks/regate.json",
		pkg:      "@github/copilot",
		timeout:  90 * time.Second,
		wire:     chatWire,
		pick:     pickCopilot,
		edit: func(r *hostRun, c toolCall) []wireCall {
			return []wireCall{{name: "edit", args: map[string]any{
				"path": filepath.Join(r.work, c.file), "old_str": c.old, "new_str": c.content,
			}}}
		},
		configure: func(r *hostRun, sc scenario) {
			copilotHome := filepath.Join(r.home, ".copilot")
			for k, v := range map[string]string{
				"COPILOT_HOME":              copilotHome,
				"COPILOT_OFFLINE":           "true",
				"COPILOT_AUTO_UPDATE":       "false",
				"COPILOT_PROVIDER_BASE_URL": r.url + "/v1",
				"COPILOT_PROVIDER_TYPE":     "openai",
				"COPILOT_PROVIDER_API_KEY":  "e2e-fake",
				"COPILOT_MODEL":             "gpt-4.1",
			} {
				r.setenv(k, v)
			}
			r.writeJSON(filepath.Join(copilotHome, "mcp-config.json"), map[string]any{
				"mcpServers": map[string]any{"fake": map[string]any{
					"type": "local", "command": fakeMCPBin, "args": []string{r.work}, "tools": []string{"*"},
				}},
			})
		},
		argv: func(r *hostRun) []string {
			return []string{"copilot", "-p", "go", "--allow-all-tools", "--no-auto-update", "--no-color"}
		},
	})
}

// pickCopilot maps a scenario's call to Copilot CLI's tools.
func pickCopilot(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		return wireCall{name: "bash", args: map[string]any{"command": c.command, "description": "e2e"}}, nil
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callWrite:
		if !slices.Contains(offered, "create") {
			return wireCall{}, fmt.Errorf("copilot offered no create tool: %q", offered)
		}
		return wireCall{name: "create", args: map[string]any{"path": filepath.Join(r.work, c.file), "file_text": c.content}}, nil
	}
	return wireCall{}, fmt.Errorf("copilot: no tool for %q", c.kind)
}
