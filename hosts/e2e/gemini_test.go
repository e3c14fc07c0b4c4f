package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

// Gemini CLI: -p headless with --yolo (without it, headless mode does not
// register run_shell_command at all), the Gemini API at
// GOOGLE_GEMINI_BASE_URL, the fake MCP server in settings.json; regate
// install gemini writes BeforeTool into ~/.gemini/settings.json.
func TestGemini(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:     "gemini",
		bin:      "gemini",
		settings: ".gemini/settings.json",
		pkg:      "@google/gemini-cli",
		timeout:  60 * time.Second,
		wire:     geminiWire,
		pick:     pickGemini,
		edit: func(r *hostRun, c toolCall) []wireCall {
			return []wireCall{{name: "replace", args: map[string]any{
				"file_path": filepath.Join(r.work, c.file), "old_string": c.old, "new_string": c.content, "instruction": "e2e",
			}}}
		},
		configure: func(r *hostRun, sc scenario) {
			r.setenv("GEMINI_API_KEY", "e2e-fake")
			r.setenv("GOOGLE_GEMINI_BASE_URL", r.url)
			// Without it --yolo is dropped silently in an untrusted folder.
			r.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
			// Gemini CLI starts itself a second time for a larger heap:
			// twice the start-up CPU on a CI machine of two cores.
			r.setenv("GEMINI_CLI_NO_RELAUNCH", "true")
			r.writeJSON(filepath.Join(r.home, ".gemini", "settings.json"), map[string]any{
				// With only environment variables the CLI picks the auth
				// type "gateway" and headless mode exits 41.
				"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
				"privacy":    map[string]any{"usageStatisticsEnabled": false},
				"telemetry":  map[string]any{"enabled": false},
				"general":    map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
				"mcpServers": map[string]any{"fake": map[string]any{"command": fakeMCPBin, "args": []string{r.work}}},
			})
		},
		argv: func(r *hostRun) []string {
			return []string{"gemini", "-p", "go", "--yolo"}
		},
	})
}
